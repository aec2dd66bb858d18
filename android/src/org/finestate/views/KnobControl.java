package org.finestate.views;

import java.util.Map;

import android.view.View;
import android.widget.LinearLayout;
import android.widget.TextView;

import org.json.JSONObject;

/** knob: a KnobView (custom) with its value shown beside; the goal box is the largest square in
 * the goal's wedge (checked pixel by pixel with the view's own angle rule), inside the dial. */
final class KnobControl extends GridControl {
    private KnobView knob;

    KnobControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        grid = new Grid(p.opt("min"), p.opt("step"), p.opt("max"));
        LinearLayout card = ui.card(title("label"), 0);
        String[] values = new String[grid.last + 1];
        for (int i = 0; i <= grid.last; i++) values[i] = grid.value(i).toPlainString() + p.optString("unit");
        knob = new KnobView(ui, values, grid.index(state), ui.px(p.optInt("radius", 50)),
                ui.px(p.optInt("grab", 24)));
        Ui.add(card, knob, knob.size(), knob.size());
        TextView readout = ui.label(grid.min.toPlainString() + " \u2026 " + grid.value(grid.last).toPlainString()
                + p.optString("unit"));
        Ui.add(card, readout, LinearLayout.LayoutParams.WRAP_CONTENT, LinearLayout.LayoutParams.WRAP_CONTENT);
        return card;
    }

    @Override
    Object state() {
        return grid.value(knob.k);
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        int size = knob.size();
        int c = size / 2;
        int r = knob.radius;
        out.put("core", Ui.box(knob, c - r, c - r, c + r + 1, c + r + 1));
        final int g = grid.index(goal);
        float[] aim = knob.tip(g);
        final float centre = knob.centre();
        final int radius = r;
        int[] sq = knob.square(Math.round(aim[0]), Math.round(aim[1]),
                new int[] {c - r, c - r, c + r, c + r}, new TouchView.PixelTest() {
                    @Override
                    public boolean hits(int x, int y) {
                        // Inside the dial (core) and in the goal's wedge.
                        return Math.hypot(x - centre, y - centre) <= radius
                                && knob.indexAt(x, y) == g;
                    }
                });
        out.put("goal", sq == null ? null : Ui.box(knob, sq[0], sq[1], sq[2], sq[3]));
        float[] tip = knob.tip(knob.k);
        int half = knob.grabSize / 2;
        int tx = Math.round(tip[0]);
        int ty = Math.round(tip[1]);
        out.put("now", Ui.box(knob, tx - half, ty - half, tx + half + 1, ty + half + 1));
    }
}
