package org.finestate.views;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
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
 *
 * The route to the goal is a twisty tap per folder that differs from it, top-down (a goal inside
 * collapsed folders, episodes of several gestures, takes several): the goal box is the twisty of
 * the first visible folder that differs (the target's when none does), `now` its row.
 */
final class TreeViewControl extends Control {
    private final TreeSet<String> expanded = new TreeSet<String>();
    private LinearLayout rows;
    // The visible folders in the order shown: id -> {twisty, row}.
    private final LinkedHashMap<String, View[]> folders = new LinkedHashMap<String, View[]>();

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
        folders.clear();
        addRows(p.optJSONArray("tree"), "", 0);
    }

    private void addRows(JSONArray nodes, String prefix, int level) {
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
            if (children != null) folders.put(id, new View[] {twisty, row});
            if (children != null && expanded.contains(id)) addRows(children, id + "/", level + 1);
        }
    }

    @Override
    Object state() {
        ArrayList<String> out = new ArrayList<String>(expanded);
        Collections.sort(out);
        return out;
    }

    /** The folders whose expansion differs between what is shown and `goal`. */
    @SuppressWarnings("unchecked")
    private TreeSet<String> differing(Object goal) {
        TreeSet<String> wanted = new TreeSet<String>((List<String>) goal);
        TreeSet<String> out = new TreeSet<String>(expanded);
        out.removeAll(wanted);
        wanted.removeAll(expanded);
        out.addAll(wanted);
        return out;
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        TreeSet<String> differ = differing(goal);
        View[] next = folders.get(p.optString("target"));
        for (Map.Entry<String, View[]> folder : folders.entrySet()) {
            if (differ.contains(folder.getKey())) {
                next = folder.getValue();
                break;
            }
        }
        int[] twisty = Ui.box(next[0]);
        int[] row = Ui.box(next[1]);
        out.put("loc", Ui.box(card));
        out.put("core", twisty);
        out.put("goal", twisty);
        out.put("now", new int[] {twisty[0], row[1], row[2], row[3]});
    }

    @Override
    Integer reach(Object goal) {
        return differing(goal).size();
    }
}
