package org.finestate.views;

import java.util.Map;

import android.view.View;
import android.widget.LinearLayout;

import org.json.JSONObject;

/** resizable_pane: a PaneView (custom); the state is the pane's size, dragged (goal probed). */
final class ResizablePaneControl extends IntDragControl {
    private PaneView view;

    ResizablePaneControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        LinearLayout card = ui.card(p.optString("project"), 0);
        view = new PaneView(ui, p.optString("side"), ((Number) state).intValue(), p.optInt("min"),
                p.optInt("max"), p.optInt("step"), ui.px(p.optInt("handle", 48)), p.optString("pane"));
        Ui.add(card, view, ui.px(p.optInt("width")), ui.px(p.optInt("height")));
        return card;
    }

    @Override
    int shown() {
        return view.size;
    }

    @Override
    void show(int value) {
        view.size = value;
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        int[] core = Ui.box(view);
        out.put("core", core);
        int[] h = view.handle();
        int[] now = Ui.box(view, h[0], h[1], h[2], h[3]);
        out.put("now", now);
        out.put("goal", Probe.band(probe, core, now, goal, view.alongX));
    }
}
