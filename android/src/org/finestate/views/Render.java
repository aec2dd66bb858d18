package org.finestate.views;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import android.os.Handler;
import android.view.View;
import android.widget.FrameLayout;

import org.json.JSONArray;
import org.json.JSONObject;

/**
 * One instance on the screen. Four copies of the control are built: the one shown, in the
 * current state, and three invisible ones at the same place: the target (the goal state, for the
 * target boxes) and, for drag types, one probing copy per state (`Probe`). Ready once the shown
 * and target boxes measure the same twice in a row after layout.
 */
final class Render {
    private static final int MARGIN_DP = 8;  // the stage's free border (components/base.py)
    private static final long POLL_MS = 50;
    private static final long GIVE_UP_MS = 10000;

    final String component;
    private final FrameLayout root;
    private final Handler handler;
    private final Ui ui;
    private final JSONObject params;
    private final Object current;
    private final Object goal;
    private Control live;
    private Control target;
    private Control probeCurrent;
    private Control probeTarget;
    private boolean placed;
    private boolean ready;
    private String error;
    private Map<String, Object> boxes;
    private String lastMeasure;
    private long startedAt;
    private final Runnable poll = new Runnable() {
        @Override
        public void run() {
            step();
        }
    };

    Render(MainActivity activity, FrameLayout root, Handler handler, JSONObject spec) {
        this.root = root;
        this.handler = handler;
        this.component = spec.optString("component");
        this.params = spec.optJSONObject("params");
        if (params == null) throw new IllegalArgumentException("the spec has no 'params' object");
        if (!spec.has("current_state") || !spec.has("goal_state")) {
            throw new IllegalArgumentException("the spec needs 'current_state' and 'goal_state'");
        }
        this.current = Controls.plain(spec.opt("current_state"));
        this.goal = Controls.plain(spec.opt("goal_state"));
        this.ui = new Ui(activity, spec.optString("theme"));
    }

    void start() {
        root.setBackgroundColor(ui.background);
        target = add(goal, true);
        live = add(current, false);
        if (live.probed()) {
            probeCurrent = add(current, true);
            probeTarget = add(goal, true);
        }
        startedAt = android.os.SystemClock.uptimeMillis();
        handler.postDelayed(poll, POLL_MS);
    }

    void stop() {
        handler.removeCallbacks(poll);
    }

    private Control add(Object state, boolean hidden) {
        Control control = Controls.create(component, ui, params);
        control.card = control.build(state);
        control.card.setVisibility(hidden ? View.INVISIBLE : View.VISIBLE);
        root.addView(control.card, new FrameLayout.LayoutParams(
                control.card.getLayoutParams().width, control.card.getLayoutParams().height));
        return control;
    }

    boolean ready() {
        return ready;
    }

    String error() {
        return error;
    }

    Object state() {
        return live.state();
    }

    /**
     * The boxes once ready, else null: the current configuration's measured now, from the views
     * as a gesture left them (episodes of several gestures; a drag type's band probed on its copy
     * put in the state shown), the target's as measured at ready.
     */
    Map<String, Object> boxes() {
        if (boxes == null) return null;
        if (probeCurrent != null) probeCurrent.apply(live.state());
        Map<String, Object> out = new LinkedHashMap<String, Object>();
        out.put("current", live.boxes(goal, probeCurrent));
        out.put("target", boxes.get("target"));
        return out;
    }

    /** Gestures the shortest route from what is shown to the goal still takes (Control.reach). */
    Integer reach() {
        return live.reach(goal);
    }

    private void step() {
        if (android.os.SystemClock.uptimeMillis() - startedAt > GIVE_UP_MS) {
            error = "the control did not settle within " + GIVE_UP_MS + " ms";
            return;
        }
        if (root.getWidth() == 0 || live.card.getWidth() == 0 || root.isLayoutRequested()) {
            handler.postDelayed(poll, POLL_MS);
            return;
        }
        if (!placed) {
            place();
            placed = true;
            handler.postDelayed(poll, POLL_MS);
            return;
        }
        try {
            Map<String, Object> measured = new LinkedHashMap<String, Object>();
            measured.put("current", live.boxes(goal, probeCurrent));
            measured.put("target", target.boxes(goal, probeTarget));
            String missing = missingBox(measured);
            if (missing != null) {
                error = "could not measure the " + missing + " box of " + component;
                return;
            }
            String text = Json.write(measured);
            if (text.equals(lastMeasure)) {
                boxes = measured;
                ready = true;
                return;
            }
            lastMeasure = text;
        } catch (RuntimeException e) {
            error = "measuring the boxes failed: " + e;
            return;
        }
        handler.postDelayed(poll, POLL_MS);
    }

    /** "current goal" for the first box that is null (a goal no release reaches), else null. */
    @SuppressWarnings("unchecked")
    private static String missingBox(Map<String, Object> measured) {
        for (Map.Entry<String, Object> config : measured.entrySet()) {
            for (Map.Entry<String, int[]> box : ((Map<String, int[]>) config.getValue()).entrySet()) {
                if (box.getValue() == null) return config.getKey() + " " + box.getKey();
            }
        }
        return null;
    }

    /** Every copy's top-left at anchor * (the free room), as the web stage places a control. */
    private void place() {
        JSONArray anchor = params.optJSONArray("anchor");
        double ax = anchor != null ? anchor.optDouble(0) : 0.5;
        double ay = anchor != null ? anchor.optDouble(1) : 0.5;
        int margin = ui.px(MARGIN_DP);
        int width = Math.max(live.card.getWidth(), target.card.getWidth());
        int height = Math.max(live.card.getHeight(), target.card.getHeight());
        int left = margin + (int) Math.round(ax * Math.max(0, root.getWidth() - 2 * margin - width));
        int top = margin + (int) Math.round(ay * Math.max(0, root.getHeight() - 2 * margin - height));
        for (Control c : Arrays.asList(live, target, probeCurrent, probeTarget)) {
            if (c == null) continue;
            FrameLayout.LayoutParams lp = (FrameLayout.LayoutParams) c.card.getLayoutParams();
            lp.leftMargin = left;
            lp.topMargin = top;
            c.card.setLayoutParams(lp);
        }
    }
}
