package org.finestate.views;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import android.view.View;
import android.widget.LinearLayout;

import org.json.JSONObject;

/** drag_reorder: a ReorderView (custom); the state is the order of the labels. */
final class DragReorderControl extends Control {
    private ReorderView rows;

    DragReorderControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    @SuppressWarnings("unchecked")
    View build(Object state) {
        LinearLayout card = ui.card(title("title"), p.optInt("width"));
        rows = new ReorderView(ui, (List<String>) state, p.optString("item"), ui.px(p.optInt("row_height", 48)),
                ui.px(p.optInt("gap", 4)));
        Ui.add(card, rows, LinearLayout.LayoutParams.MATCH_PARENT, rows.height());
        return card;
    }

    @Override
    Object state() {
        return new ArrayList<String>(rows.order);
    }

    @Override
    boolean probed() {
        return true;
    }

    @Override
    @SuppressWarnings("unchecked")
    void apply(Object state) {
        rows.order.clear();
        rows.order.addAll((List<String>) state);
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        int[] core = Ui.box(rows);
        out.put("core", core);
        int top = rows.top(rows.order.indexOf(rows.item));
        int[] now = Ui.box(rows, 0, top, rows.getWidth(), top + rows.row);
        out.put("now", now);
        out.put("goal", Probe.band(probe, core, now, goal, false));
    }
}
