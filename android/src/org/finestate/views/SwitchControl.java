package org.finestate.views;

import java.util.ArrayList;
import java.util.Map;

import android.view.View;
import android.widget.LinearLayout;
import android.widget.Switch;

import org.json.JSONArray;
import org.json.JSONObject;

/** switch: native Switch rows (the label is the Switch's own text: a tap anywhere flips it). */
final class SwitchControl extends Control {
    private final ArrayList<Switch> switches = new ArrayList<Switch>();

    SwitchControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        LinearLayout card = ui.card(title("title"), p.optInt("width"));
        JSONArray labels = p.optJSONArray("labels");
        JSONArray on = p.optJSONArray("on");
        int target = p.optInt("target");
        for (int i = 0; i < labels.length(); i++) {
            Switch s = new Switch(ui.context);
            s.setText(labels.optString(i));
            s.setTextColor(ui.text);
            s.setChecked(i == target ? Boolean.TRUE.equals(state) : on.optBoolean(i));
            s.setSoundEffectsEnabled(false);
            Ui.add(card, s, LinearLayout.LayoutParams.MATCH_PARENT, ui.px(p.optInt("hit", 48)));
            switches.add(s);
        }
        return card;
    }

    @Override
    Object state() {
        return switches.get(p.optInt("target")).isChecked();
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        int[] row = Ui.box(switches.get(p.optInt("target")));
        out.put("loc", row);
        out.put("core", row);
        out.put("goal", row);
        out.put("now", row);
    }
}
