package org.finestate.views;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import android.view.View;
import android.widget.LinearLayout;
import android.widget.RadioButton;
import android.widget.RadioGroup;

import org.json.JSONArray;
import org.json.JSONObject;

/** radio_group: a native RadioGroup of RadioButtons; the state is the checked option. */
final class RadioGroupControl extends Control {
    private static final int FIRST_ID = 0x7f0a0001;  // any ids unique in the window
    private final ArrayList<RadioButton> buttons = new ArrayList<RadioButton>();
    private List<String> options;
    private RadioGroup group;

    RadioGroupControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        LinearLayout card = ui.card(title("question"), p.optInt("width"));
        if (!p.isNull("hint")) {
            Ui.add(card, ui.label(p.optString("hint")), LinearLayout.LayoutParams.WRAP_CONTENT,
                    LinearLayout.LayoutParams.WRAP_CONTENT);
        }
        options = Json.strings(p.optJSONArray("options"));
        JSONArray details = p.optJSONArray("details");
        boolean horizontal = "horizontal".equals(p.optString("layout"));
        group = new RadioGroup(ui.context);
        group.setOrientation(horizontal ? LinearLayout.HORIZONTAL : LinearLayout.VERTICAL);
        int row = Math.max(p.optInt("row", 48), 48);
        for (int i = 0; i < options.size(); i++) {
            RadioButton button = new RadioButton(ui.context);
            button.setId(FIRST_ID + i);
            String text = options.get(i);
            if (details != null && !details.isNull(i)) text += "\n" + details.optString(i);
            button.setText(text);
            button.setTextColor(ui.text);
            button.setSoundEffectsEnabled(false);
            if (horizontal) {
                Ui.addWeighted(group, button, ui.px(row));
            } else {
                Ui.add(group, button, LinearLayout.LayoutParams.MATCH_PARENT,
                        LinearLayout.LayoutParams.WRAP_CONTENT);
                button.setMinimumHeight(ui.px(row));
            }
            buttons.add(button);
        }
        if (state != null) group.check(FIRST_ID + options.indexOf(state));
        Ui.add(card, group, LinearLayout.LayoutParams.MATCH_PARENT, LinearLayout.LayoutParams.WRAP_CONTENT);
        return card;
    }

    @Override
    Object state() {
        int id = group.getCheckedRadioButtonId();
        return id == -1 ? null : options.get(id - FIRST_ID);
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        out.put("core", Ui.box(group));
        out.put("goal", Ui.box(buttons.get(options.indexOf(goal))));
        Object shown = state();
        out.put("now", shown == null ? null : Ui.box(buttons.get(options.indexOf(shown))));
    }
}
