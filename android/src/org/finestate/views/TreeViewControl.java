package org.finestate.views;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import android.view.View;
import android.widget.LinearLayout;
import android.widget.TextView;

import org.json.JSONArray;
import org.json.JSONObject;

/**
 * tree_view: folder and file rows (LinearLayouts, 2-4 levels: deeper than ExpandableListView's
 * two); a tap on a folder's twisty expands or collapses it. The state is the sorted list of the
 * expanded folders' ids (slash-joined paths).
 */
final class TreeViewControl extends Control {
    private final TreeSet<String> expanded = new TreeSet<String>();
    private LinearLayout rows;
    private View targetTwisty;
    private View targetRow;

    TreeViewControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    @SuppressWarnings("unchecked")
    View build(Object state) {
        LinearLayout card = ui.card(title("title"), p.optInt("width"));
        for (Object id : (List<Object>) state) expanded.add((String) id);
        rows = ui.column();
        Ui.add(card, rows, LinearLayout.LayoutParams.MATCH_PARENT, LinearLayout.LayoutParams.WRAP_CONTENT);
        fill();
        return card;
    }

    private void fill() {
        rows.removeAllViews();
        targetTwisty = null;
        targetRow = null;
        addRows(p.optJSONArray("tree"), "", 0);
    }

    private void addRows(JSONArray nodes, String prefix, int level) {
        String target = p.optString("target");
        int height = ui.px(p.optInt("row_height", 40));
        for (int i = 0; nodes != null && i < nodes.length(); i++) {
            JSONObject node = nodes.optJSONObject(i);
            final String id = prefix + node.optString("name");
            JSONArray children = node.optJSONArray("children");
            LinearLayout row = ui.row();
            row.setPadding(ui.px(p.optInt("indent", 20)) * level, 0, 0, 0);
            TextView twisty = ui.label(children == null ? "" : expanded.contains(id) ? "\u25BE" : "\u25B8");
            twisty.setGravity(Ui.CENTER);
            if (children != null) {
                twisty.setSoundEffectsEnabled(false);
                twisty.setOnClickListener(new View.OnClickListener() {
                    @Override
                    public void onClick(View v) {
                        if (!expanded.remove(id)) expanded.add(id);
                        fill();
                    }
                });
            }
            Ui.add(row, twisty, ui.px(p.optInt("twisty", 24)), height);
            TextView label = ui.label((children == null ? "\u25A1 " : "\u25A0 ") + node.optString("name"));
            if (id.equals(p.optString("selected"))) label.setBackgroundColor(ui.border);
            Ui.addWeighted(row, label, height);
            Ui.add(rows, row, LinearLayout.LayoutParams.MATCH_PARENT, height);
            if (id.equals(target)) {
                targetTwisty = twisty;
                targetRow = row;
            }
            if (children != null && expanded.contains(id)) addRows(children, id + "/", level + 1);
        }
    }

    @Override
    Object state() {
        ArrayList<String> out = new ArrayList<String>(expanded);
        Collections.sort(out);
        return out;
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        int[] twisty = Ui.box(targetTwisty);
        int[] row = Ui.box(targetRow);
        out.put("loc", Ui.box(card));
        out.put("core", twisty);
        out.put("goal", twisty);
        out.put("now", new int[] {twisty[0], row[1], row[2], row[3]});
    }
}
