package org.finestate.views;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import android.view.View;
import android.widget.LinearLayout;

import org.json.JSONArray;
import org.json.JSONObject;

/**
 * zoom_pan: a MapView (custom). The goal box, for a press at the centre pixel of the named pin
 * (`now`), is every release whose whole-cell drag per axis (the view's own rounding) is the pan
 * the goal asks: one grid cell around the crosshair.
 */
final class ZoomPanControl extends Control {
    private MapView map;

    ZoomPanControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        LinearLayout card = ui.card(title("title"), 0);
        JSONArray pins = p.optJSONArray("pins");
        JSONArray cross = p.optJSONArray("cross");
        JSONArray reach = p.optJSONArray("reach");
        int grid = p.optInt("grid", 10);
        int gridPx = ui.px(grid);
        int[] crossPx = {ui.px(cross.optInt(0)), ui.px(cross.optInt(1))};
        int[][] at = new int[pins.length()][2];
        String[] names = new String[pins.length()];
        for (int i = 0; i < pins.length(); i++) {
            JSONArray pin = pins.optJSONArray(i);
            names[i] = pin.optString(0);
            for (int axis = 0; axis < 2; axis++) {
                // Whole cells from the crosshair stay whole cells of the device's grid, so the
                // goal pan puts the named pin exactly on the crosshair at any density.
                int d = pin.optInt(axis + 1) - cross.optInt(axis);
                at[i][axis] = crossPx[axis] + (d % grid == 0 ? d / grid * gridPx : ui.px(d));
            }
        }
        map = new MapView(ui, gridPx, crossPx,
                new int[] {reach.optInt(0), reach.optInt(1)}, at, names, ui.px(p.optInt("pin", 25)) | 1);
        apply(state);
        Ui.add(card, map, ui.px(p.optInt("width")), ui.px(p.optInt("height")));
        return card;
    }

    @Override
    Object state() {
        List<Integer> out = new ArrayList<Integer>();
        out.add(map.pan[0]);
        out.add(map.pan[1]);
        return out;
    }

    void apply(Object state) {
        List<?> pan = (List<?>) state;
        map.pan[0] = ((Number) pan.get(0)).intValue();
        map.pan[1] = ((Number) pan.get(1)).intValue();
    }

    /** The inclusive range of release offsets d (px) with cells(d) == n. */
    private int[] offsets(int n) {
        int lo = n * map.grid;
        while (map.cells(lo - 1) == n) lo--;
        int hi = n * map.grid;
        while (map.cells(hi + 1) == n) hi++;
        return new int[] {lo, hi};
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        int[] core = Ui.box(map);
        out.put("core", core);
        int[] pin = map.pinAt(0);
        int half = map.pinSize / 2;
        int[] now = Ui.box(map, pin[0] - half, pin[1] - half, pin[0] + half + 1, pin[1] + half + 1);
        out.put("now", now);
        List<?> g = (List<?>) goal;
        int[] dx = offsets(((Number) g.get(0)).intValue() - map.pan[0]);
        int[] dy = offsets(((Number) g.get(1)).intValue() - map.pan[1]);
        int x0 = Ui.centre(now[0], now[2]);
        int y0 = Ui.centre(now[1], now[3]);
        int[] box = {Math.max(core[0], x0 + dx[0]), Math.max(core[1], y0 + dy[0]),
            Math.min(core[2], x0 + dx[1]), Math.min(core[3], y0 + dy[1])};
        out.put("goal", box[0] <= box[2] && box[1] <= box[3] ? box : null);
    }
}
