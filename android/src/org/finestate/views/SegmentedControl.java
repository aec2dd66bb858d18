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

/** segmented: one native RadioGroup of circle-less RadioButtons per group, each under its label. */
final class SegmentedControl extends Control {
    private static final int FIRST_ID = 0x7f0c0001;
    private final ArrayList<RadioButton> buttons = new ArrayList<RadioButton>();
    private List<String> segments;
    private RadioGroup group;

    SegmentedControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        LinearLayout card = ui.card(title("title"), p.optInt("width"));
        JSONArray groups = p.optJSONArray("groups");
        JSONArray selected = p.optJSONArray("selected");
        int target = p.optInt("target");
        int height = ui.px(p.optInt("height", 48));
        for (int g = 0; g < groups.length(); g++) {
            JSONObject spec = groups.optJSONObject(g);
            Ui.add(card, ui.label(spec.optString("label")), LinearLayout.LayoutParams.WRAP_CONTENT,
                    LinearLayout.LayoutParams.WRAP_CONTENT);
            List<String> names = Json.strings(spec.optJSONArray("segments"));
            RadioGroup radios = new RadioGroup(ui.context);
            radios.setOrientation(LinearLayout.HORIZONTAL);
            int base = FIRST_ID + 64 * g;
            final ArrayList<RadioButton> row = new ArrayList<RadioButton>();
            for (int i = 0; i < names.size(); i++) {
                RadioButton button = TabsControl.segment(ui, names.get(i), base + i);
                Ui.add(radios, button, ui.px(spec.optInt("segment", 72)), height);
                row.add(button);
                if (g == target) buttons.add(button);
            }
            Object shown = g == target ? state : Controls.plain(selected.opt(g));
            if (shown != null) radios.check(base + names.indexOf(shown));
            TabsControl.paint(ui, row);
            radios.setOnCheckedChangeListener(new RadioGroup.OnCheckedChangeListener() {
                @Override
                public void onCheckedChanged(RadioGroup group, int checkedId) {
                    TabsControl.paint(ui, row);
                }
            });
            Ui.add(card, radios, LinearLayout.LayoutParams.WRAP_CONTENT, LinearLayout.LayoutParams.WRAP_CONTENT);
            if (g == target) {
                group = radios;
                segments = names;
            }
        }
        return card;
    }

    @Override
    Object state() {
        int id = group.getCheckedRadioButtonId();
        return id == -1 ? null : segments.get(id - FIRST_ID - 64 * p.optInt("target"));
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        int[] core = Ui.box(group);
        out.put("loc", core);
        out.put("core", core);
        out.put("goal", Ui.box(buttons.get(segments.indexOf(goal))));
        Object shown = state();
        out.put("now", shown == null ? null : Ui.box(buttons.get(segments.indexOf(shown))));
    }
}
