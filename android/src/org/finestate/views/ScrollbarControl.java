package org.finestate.views;

import java.util.Map;

import android.view.View;
import android.widget.LinearLayout;

import org.json.JSONArray;
import org.json.JSONObject;

/** scrollbar: a ScrollRowsView (custom); the state is the first row shown (goal probed). */
final class ScrollbarControl extends IntDragControl {
    private ScrollRowsView list;

    ScrollbarControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        LinearLayout card = ui.card(title("title"), p.optInt("width"));
        int rows = p.optInt("rows");
        JSONArray details = p.optJSONArray("details");
        JSONArray extra = p.optJSONArray("extra");
        String[] lines = new String[rows];
        for (int i = 0; i < rows; i++) {
            lines[i] = p.optString("prefix") + (p.optInt("start") + i) + "  "
                    + (details == null ? "" : details.optString(i)) + "  "
                    + (extra == null ? "" : extra.optString(i));
        }
        int visible = p.optInt("visible");
        int hit = Math.max(p.optInt("track_width", 14), p.optInt("hit", 0));
        list = new ScrollRowsView(ui, lines, visible, ui.px(p.optInt("row_height", 28)),
                ui.px(p.optInt("thumb", 40)), ui.px(hit), ((Number) state).intValue());
        Ui.add(card, list, LinearLayout.LayoutParams.MATCH_PARENT, list.track());
        return card;
    }

    @Override
    int shown() {
        return list.first;
    }

    @Override
    void show(int value) {
        list.first = value;
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        int left = list.getWidth() - list.trackWidth;
        int[] core = Ui.box(list, left, 0, list.getWidth(), list.track());
        out.put("core", core);
        int top = list.thumbTop();
        int[] now = Ui.box(list, left, top, list.getWidth(), top + list.thumb);
        out.put("now", now);
        out.put("goal", Probe.band(probe, core, now, goal, false));
    }
}
