package org.finestate.views;

import java.util.List;
import java.util.Map;

import android.view.View;
import android.view.ViewGroup;
import android.widget.AbsListView;
import android.widget.BaseAdapter;
import android.widget.LinearLayout;
import android.widget.ListView;

import org.json.JSONObject;

/** list_box: the field's label over a native single-choice ListView, every row visible. */
final class ListBoxControl extends Control {
    private List<String> options;
    private ListView list;

    ListBoxControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        LinearLayout card = ui.card(title("label"), p.optInt("width"));
        options = Json.strings(p.optJSONArray("options"));
        final int row = ui.px(p.optInt("row_height", 48));
        list = new ListView(ui.context);
        list.setDividerHeight(0);
        list.setVerticalScrollBarEnabled(false);
        list.setChoiceMode(AbsListView.CHOICE_MODE_SINGLE);
        list.setAdapter(new BaseAdapter() {
            @Override
            public int getCount() {
                return options.size();
            }

            @Override
            public Object getItem(int position) {
                return options.get(position);
            }

            @Override
            public long getItemId(int position) {
                return position;
            }

            @Override
            public View getView(int position, View convertView, ViewGroup parent) {
                return new OptionRow(ui, options.get(position), row);
            }
        });
        list.setItemChecked(options.indexOf(state), true);
        Ui.add(card, list, LinearLayout.LayoutParams.MATCH_PARENT, row * options.size());
        return card;
    }

    @Override
    Object state() {
        int position = list.getCheckedItemPosition();
        return position < 0 ? null : options.get(position);
    }

    private int[] rowBox(Object option) {
        return Ui.box(list.getChildAt(options.indexOf(option) - list.getFirstVisiblePosition()));
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        out.put("core", Ui.box(list));
        out.put("goal", rowBox(goal));
        Object shown = state();
        out.put("now", shown == null ? null : rowBox(shown));
    }
}
