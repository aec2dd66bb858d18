package org.finestate.views;

import java.util.Map;

import android.view.View;
import android.widget.LinearLayout;
import android.widget.TextView;

import org.json.JSONObject;

/** time_picker: the time as a header over a ClockView minute dial (custom); "HH:MM". */
final class TimePickerControl extends Control {
    private int hour;
    private ClockView clock;

    TimePickerControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        String hhmm = (String) state;
        hour = Integer.parseInt(hhmm.substring(0, 2));
        LinearLayout card = ui.card(title("title"), 0);
        TextView label = ui.label(p.optString("label"));
        Ui.add(card, label, LinearLayout.LayoutParams.WRAP_CONTENT, LinearLayout.LayoutParams.WRAP_CONTENT);
        clock = new ClockView(ui, hour, Integer.parseInt(hhmm.substring(3, 5)),
                ui.px(p.optInt("radius", 100)), ui.px(p.optInt("knob", 40)));
        Ui.add(card, clock, clock.size(), clock.size());
        return card;
    }

    @Override
    Object state() {
        return String.format(java.util.Locale.ROOT, "%02d:%02d", hour, clock.minute);
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        int size = clock.size();
        int c = size / 2;
        int r = clock.radius;
        out.put("core", Ui.box(clock, c - r, c - r, c + r + 1, c + r + 1));
        final int g = Integer.parseInt(((String) goal).substring(3, 5));
        final float centre = clock.centre();
        final int radius = r;
        float[] aim = clock.hand(g, 0.8);
        int[] sq = clock.square(Math.round(aim[0]), Math.round(aim[1]),
                new int[] {c - r, c - r, c + r, c + r}, new TouchView.PixelTest() {
                    @Override
                    public boolean hits(int x, int y) {
                        return Math.hypot(x - centre, y - centre) <= radius && clock.minuteAt(x, y) == g;
                    }
                });
        out.put("goal", sq == null ? null : Ui.box(clock, sq[0], sq[1], sq[2], sq[3]));
        float[] tip = clock.hand(clock.minute, 0.85);
        int half = clock.knob / 2;
        int tx = Math.round(tip[0]);
        int ty = Math.round(tip[1]);
        out.put("now", Ui.box(clock, tx - half, ty - half, tx + half + 1, ty + half + 1));
    }
}
