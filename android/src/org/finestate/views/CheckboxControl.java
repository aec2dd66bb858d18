package org.finestate.views;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import android.view.View;
import android.widget.CheckBox;
import android.widget.LinearLayout;

import org.json.JSONArray;
import org.json.JSONObject;

/** checkbox: native CheckBoxes; the state is the checked labels, sorted (as the Python type). */
final class CheckboxControl extends Control {
    private final ArrayList<CheckBox> boxes = new ArrayList<CheckBox>();
    private List<String> labels;

    CheckboxControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        LinearLayout card = ui.card(title("title"), p.optInt("width"));
        if (!p.isNull("hint")) {
            Ui.add(card, ui.label(p.optString("hint")), LinearLayout.LayoutParams.WRAP_CONTENT,
                    LinearLayout.LayoutParams.WRAP_CONTENT);
        }
        labels = Json.strings(p.optJSONArray("labels"));
        List<?> checked = (List<?>) state;
        JSONArray counts = p.optJSONArray("counts");
        int row = Math.max(p.optInt("row", 48), p.optInt("hit", 48));
        for (int i = 0; i < labels.size(); i++) {
            CheckBox box = new CheckBox(ui.context);
            String text = labels.get(i);
            if (counts != null) text += " (" + counts.optInt(i) + ")";
            box.setText(text);
            box.setTextColor(ui.text);
            box.setChecked(checked.contains(labels.get(i)));
            box.setSoundEffectsEnabled(false);
            Ui.add(card, box, LinearLayout.LayoutParams.MATCH_PARENT, ui.px(row));
            boxes.add(box);
        }
        return card;
    }

    @Override
    Object state() {
        ArrayList<String> out = new ArrayList<String>();
        for (int i = 0; i < boxes.size(); i++) {
            if (boxes.get(i).isChecked()) out.add(labels.get(i));
        }
        Collections.sort(out);
        return out;
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        int[] row = Ui.box(boxes.get(p.optInt("target")));
        out.put("loc", row);
        out.put("core", row);
        out.put("goal", row);
        out.put("now", row);
    }
}
