package org.finestate.views;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import android.view.View;
import android.widget.LinearLayout;
import android.widget.RadioButton;
import android.widget.RadioGroup;
import android.widget.TextView;

import org.json.JSONArray;
import org.json.JSONObject;

/** tabs: a native RadioGroup bar of RadioButtons drawn as tabs, over the selected tab's text. */
final class TabsControl extends Control {
    private static final int FIRST_ID = 0x7f0b0001;
    private final ArrayList<RadioButton> tabs = new ArrayList<RadioButton>();
    private List<String> labels;
    private RadioGroup bar;

    TabsControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        LinearLayout card = ui.card(title("title"), p.optInt("width"));
        labels = Json.strings(p.optJSONArray("labels"));
        final JSONArray contents = p.optJSONArray("contents");
        final TextView content = ui.label("");
        bar = new RadioGroup(ui.context);
        bar.setOrientation(LinearLayout.HORIZONTAL);
        int height = ui.px(Math.max(p.optInt("tab_height", 48), p.optInt("hit", 48)));
        for (int i = 0; i < labels.size(); i++) {
            RadioButton tab = segment(ui, labels.get(i), FIRST_ID + i);
            Ui.addWeighted(bar, tab, height);
            tabs.add(tab);
        }
        bar.check(FIRST_ID + labels.indexOf(state));
        show(content, contents, labels.indexOf(state));
        paint(ui, tabs);
        bar.setOnCheckedChangeListener(new RadioGroup.OnCheckedChangeListener() {
            @Override
            public void onCheckedChanged(RadioGroup group, int checkedId) {
                show(content, contents, checkedId - FIRST_ID);
                paint(ui, tabs);
            }
        });
        Ui.add(card, bar, LinearLayout.LayoutParams.MATCH_PARENT, LinearLayout.LayoutParams.WRAP_CONTENT);
        Ui.add(card, content, LinearLayout.LayoutParams.MATCH_PARENT, LinearLayout.LayoutParams.WRAP_CONTENT);
        return card;
    }

    /** A RadioButton without its circle: a tab or a segment, its text centred. */
    static RadioButton segment(Ui ui, String text, int id) {
        RadioButton button = new RadioButton(ui.context);
        button.setId(id);
        button.setButtonDrawable(null);
        button.setText(text);
        button.setTextColor(ui.text);
        button.setGravity(Ui.CENTER);
        button.setSoundEffectsEnabled(false);
        return button;
    }

    /** The checked segment on the accent colour, the others on the border colour. */
    static void paint(Ui ui, List<RadioButton> segments) {
        for (RadioButton s : segments) {
            s.setBackgroundColor(s.isChecked() ? ui.accent : ui.border);
            s.setTextColor(s.isChecked() ? ui.onAccent : ui.text);
        }
    }

    private static void show(TextView content, JSONArray contents, int index) {
        JSONObject page = contents == null ? null : contents.optJSONObject(index);
        if (page == null) {
            content.setText("");
            return;
        }
        StringBuilder text = new StringBuilder(page.optString("heading"));
        JSONArray lines = page.optJSONArray("lines");
        for (int i = 0; lines != null && i < lines.length(); i++) text.append('\n').append(lines.optString(i));
        content.setText(text.toString());
    }

    @Override
    Object state() {
        int id = bar.getCheckedRadioButtonId();
        return id == -1 ? null : labels.get(id - FIRST_ID);
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        out.put("core", Ui.box(bar));
        out.put("goal", Ui.box(tabs.get(labels.indexOf(goal))));
        Object shown = state();
        out.put("now", shown == null ? null : Ui.box(tabs.get(labels.indexOf(shown))));
    }
}
