package org.finestate.views;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Map;

import android.view.View;
import android.widget.Button;
import android.widget.LinearLayout;
import android.widget.TextView;

import org.json.JSONArray;
import org.json.JSONObject;

/**
 * stepper: per field a native "-" Button, the value, a "+" Button; a tap moves one step. The goal
 * box is the button toward the goal, however many steps away it is (episodes of several gestures).
 */
final class StepperControl extends GridControl {
    private final ArrayList<View> rows = new ArrayList<View>();
    private int k;
    private Button minus;
    private Button plus;
    private TextView value;

    StepperControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        LinearLayout card = ui.card(title("title"), p.optInt("width"));
        JSONArray fields = p.optJSONArray("fields");
        int target = p.optInt("target");
        int button = ui.px(p.optInt("button", 48));
        int height = ui.px(p.optInt("height", 48));
        for (int i = 0; i < fields.length(); i++) {
            final JSONObject f = fields.optJSONObject(i);
            final Grid g = new Grid(f.opt("min"), f.opt("step"), f.opt("max"));
            Object shown = i == target ? state : Controls.plain(f.opt("value"));
            final int[] at = {shown == null ? 0 : g.index(shown)};
            LinearLayout row = ui.row();
            Ui.addWeighted(row, ui.label(f.optString("label")), LinearLayout.LayoutParams.WRAP_CONTENT);
            Button down = new Button(ui.context);
            down.setText("\u2212");
            final TextView text = ui.label(shown == null ? "" : format(g.value(at[0]), f));
            text.setGravity(Ui.CENTER);
            Button up = new Button(ui.context);
            up.setText("+");
            Ui.add(row, down, button, height);
            Ui.add(row, text, ui.px(p.optInt("field", 72)), height);
            Ui.add(row, up, button, height);
            final boolean isTarget = i == target;
            View.OnClickListener step = new View.OnClickListener() {
                @Override
                public void onClick(View v) {
                    at[0] = g.clamp(at[0] + (v.getId() == 1 ? 1 : -1));
                    text.setText(format(g.value(at[0]), f));
                    if (isTarget) k = at[0];
                }
            };
            up.setId(1);
            down.setId(2);
            up.setOnClickListener(step);
            down.setOnClickListener(step);
            up.setSoundEffectsEnabled(false);
            down.setSoundEffectsEnabled(false);
            Ui.add(card, row, LinearLayout.LayoutParams.MATCH_PARENT, LinearLayout.LayoutParams.WRAP_CONTENT);
            rows.add(row);
            if (isTarget) {
                grid = g;
                k = at[0];
                minus = down;
                plus = up;
                value = text;
            }
        }
        return card;
    }

    private static String format(BigDecimal v, JSONObject field) {
        return v.toPlainString() + field.optString("unit");
    }

    @Override
    Object state() {
        return grid.value(k);
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(rows.get(p.optInt("target"))));
        int[] down = Ui.box(minus);
        int[] up = Ui.box(plus);
        out.put("core", Ui.union(down, up));
        // At the goal (the target configuration) no button moves toward it: the value display,
        // where a tap changes nothing, as on the web and Qt.
        int toward = grid.index(goal) - k;
        out.put("goal", toward > 0 ? up : toward < 0 ? down : Ui.box(value));
        out.put("now", Ui.box(value));
    }

    /** A tap per step: the goal box is always the button toward the goal. */
    @Override
    Integer reach(Object goal) {
        return Math.abs(grid.index(goal) - k);
    }
}
