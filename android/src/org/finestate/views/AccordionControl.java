package org.finestate.views;

import java.util.List;
import java.util.Map;

import android.view.View;
import android.view.ViewGroup;
import android.widget.BaseExpandableListAdapter;
import android.widget.ExpandableListView;
import android.widget.LinearLayout;
import android.widget.TextView;

import org.json.JSONArray;
import org.json.JSONObject;

/**
 * accordion: a native ExpandableListView, one group per section; a tap on a header opens it
 * and closes the others (or closes it when open). The state is the open title, or null.
 */
final class AccordionControl extends Control {
    private List<String> titles;
    private ExpandableListView list;

    AccordionControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        LinearLayout card = ui.card(title("title"), p.optInt("width"));
        titles = Json.strings(p.optJSONArray("titles"));
        final JSONArray bodies = p.optJSONArray("bodies");
        final int header = ui.px(p.optInt("header", 48));
        list = new ExpandableListView(ui.context);
        list.setGroupIndicator(null);
        list.setDividerHeight(0);
        list.setVerticalScrollBarEnabled(false);
        list.setAdapter(new BaseExpandableListAdapter() {
            @Override
            public int getGroupCount() {
                return titles.size();
            }

            @Override
            public int getChildrenCount(int group) {
                return 1;
            }

            @Override
            public Object getGroup(int group) {
                return titles.get(group);
            }

            @Override
            public Object getChild(int group, int child) {
                return bodies.optJSONArray(group);
            }

            @Override
            public long getGroupId(int group) {
                return group;
            }

            @Override
            public long getChildId(int group, int child) {
                return child;
            }

            @Override
            public boolean hasStableIds() {
                return true;
            }

            @Override
            public View getGroupView(int group, boolean expanded, View convert, ViewGroup parent) {
                TextView view = ui.label((expanded ? "\u25BE  " : "\u25B8  ") + titles.get(group));
                view.setGravity(Ui.CENTER_VERTICAL);
                view.setMinimumHeight(header);
                view.setPadding(ui.px(8), 0, ui.px(8), 0);
                return view;
            }

            @Override
            public View getChildView(int group, int child, boolean last, View convert,
                                     ViewGroup parent) {
                StringBuilder text = new StringBuilder();
                JSONArray lines = bodies.optJSONArray(group);
                for (int i = 0; lines != null && i < lines.length(); i++) {
                    if (i > 0) text.append('\n');
                    text.append(lines.optString(i));
                }
                TextView view = ui.label(text.toString());
                view.setTextColor(ui.muted);
                view.setPadding(ui.px(16), ui.px(4), ui.px(8), ui.px(8));
                return view;
            }

            @Override
            public boolean isChildSelectable(int group, int child) {
                return false;
            }
        });
        list.setOnGroupExpandListener(new ExpandableListView.OnGroupExpandListener() {
            @Override
            public void onGroupExpand(int opened) {
                for (int i = 0; i < titles.size(); i++) {
                    if (i != opened && list.isGroupExpanded(i)) list.collapseGroup(i);
                }
            }
        });
        if (state != null) list.expandGroup(titles.indexOf(state));
        Ui.add(card, list, LinearLayout.LayoutParams.MATCH_PARENT, LinearLayout.LayoutParams.WRAP_CONTENT);
        return card;
    }

    @Override
    Object state() {
        for (int i = 0; i < titles.size(); i++) {
            if (list.isGroupExpanded(i)) return titles.get(i);
        }
        return null;
    }

    private int[] header(Object title) {
        int flat = list.getFlatListPosition(
                ExpandableListView.getPackedPositionForGroup(titles.indexOf(title)));
        return Ui.box(list.getChildAt(flat - list.getFirstVisiblePosition()));
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        Object aim = goal != null ? goal : Controls.plain(p.opt("closing"));
        Object shown = state();
        out.put("loc", Ui.box(card));
        out.put("core", Ui.box(list));
        out.put("goal", header(aim));
        out.put("now", header(shown != null ? shown : aim));
    }
}
