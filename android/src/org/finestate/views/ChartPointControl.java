package org.finestate.views;

import java.util.Map;

import android.view.View;
import android.widget.LinearLayout;

import org.json.JSONArray;
import org.json.JSONObject;

/** chart_point: a ChartView (custom); the target point is dragged to the goal value (probed). */
final class ChartPointControl extends GridControl {
    private ChartView chart;

    ChartPointControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        grid = new Grid(p.opt("min"), p.opt("step"), p.opt("max"));
        LinearLayout card = ui.card(title("title"), 0);
        Ui.add(card, ui.label(p.optString("subtitle")), LinearLayout.LayoutParams.WRAP_CONTENT,
                LinearLayout.LayoutParams.WRAP_CONTENT);
        JSONArray values = p.optJSONArray("values");
        int target = p.optInt("target");
        int[] ks = new int[values.length()];
        for (int i = 0; i < ks.length; i++) {
            Object v = i == target ? state : Controls.plain(values.opt(i));
            ks[i] = v == null ? -1 : grid.index(v);
        }
        String[] axis = new String[grid.last + 1];
        for (int i = 0; i <= grid.last; i++) axis[i] = grid.value(i).toPlainString();
        int tick = p.has("tick") ? grid.index(grid.min.add(Grid.decimal(p.opt("tick")))) : grid.last / 4;
        chart = new ChartView(ui, ks, target, axis, tick, ui.px(p.optInt("px_per_step", 6)),
                ui.px(p.optInt("column", 48)), Json.strings(p.optJSONArray("labels")).toArray(new String[0]));
        Ui.add(card, chart, chart.width(), chart.height());
        return card;
    }

    @Override
    Object state() {
        return grid.value(chart.ks[chart.target]);
    }

    @Override
    boolean probed() {
        return true;
    }

    @Override
    void apply(Object state) {
        chart.ks[chart.target] = grid.index(state);
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        int left = chart.target * chart.column;
        int[] core = Ui.box(chart, left, 0, left + chart.column, 2 * chart.pad + chart.last * chart.perStep);
        out.put("core", core);
        int y = chart.yOf(chart.ks[chart.target]);
        int half = Math.min(chart.pad, chart.column / 2);
        int[] now = Ui.box(chart, left + chart.column / 2 - half, y - half, left + chart.column / 2 + half + 1,
                y + half + 1);
        out.put("now", now);
        out.put("goal", Probe.band(probe, core, now, goal, false));
    }
}
