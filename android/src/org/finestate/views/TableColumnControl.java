package org.finestate.views;

import java.util.Map;

import android.view.View;
import android.widget.LinearLayout;

import org.json.JSONArray;
import org.json.JSONObject;

/** table_column: a ColumnsView (custom); the state is the target column's width (goal probed). */
final class TableColumnControl extends IntDragControl {
    private ColumnsView table;

    TableColumnControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        LinearLayout card = ui.card(title("title"), 0);
        String[] headers = Json.strings(p.optJSONArray("headers")).toArray(new String[0]);
        JSONArray widths = p.optJSONArray("widths");
        JSONArray rows = p.optJSONArray("cells");
        int target = p.optInt("target");
        int tableWidth = p.optInt("table_width");
        int[] others = new int[headers.length];
        int fixed = 0;
        int free = 0;
        for (int i = 0; i < headers.length; i++) {
            if (i != target && !widths.isNull(i)) {
                others[i] = widths.optInt(i);
                fixed += others[i];
            } else if (i != target) {
                free++;
            }
        }
        // Columns without a sampled width share what the target's widest setting leaves.
        int rest = Math.max(48, (tableWidth - p.optInt("max") - fixed) / Math.max(1, free));
        for (int i = 0; i < headers.length; i++) {
            if (i != target && widths.isNull(i)) others[i] = rest;
        }
        String[][] cells = new String[rows.length()][];
        for (int r = 0; r < cells.length; r++) cells[r] = Json.strings(rows.optJSONArray(r)).toArray(new String[0]);
        int header = ui.px(p.optInt("header_height", 40));
        int row = ui.px(p.optInt("row_height", 32));
        table = new ColumnsView(ui, target, ((Number) state).intValue(), p.optInt("min"), p.optInt("max"),
                p.optInt("step"), others, headers, cells, header, row, ui.px(p.optInt("handle", 16)));
        Ui.add(card, table, ui.px(tableWidth), header + cells.length * row);
        return card;
    }

    @Override
    int shown() {
        return table.size;
    }

    @Override
    void show(int value) {
        table.size = value;
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        int[] header = Ui.box(table, 0, 0, table.getWidth(), table.header);
        out.put("core", header);
        int[] h = table.handle();
        int[] now = Ui.box(table, h[0], h[1], h[2], h[3]);
        out.put("now", now);
        out.put("goal", Probe.band(probe, header, now, goal, true));
    }
}
