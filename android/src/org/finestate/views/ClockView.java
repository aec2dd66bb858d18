package org.finestate.views;

import android.graphics.Canvas;

/**
 * time_picker's minute dial (the hour is fixed): a tap on the dial sets the minute to the
 * pointer's angle, 0 at the top, clockwise, 6 degrees a minute, rounded. Android's TimePicker
 * keeps its dial (RadialTimePickerView) private, with no bounds to measure, so it is drawn here.
 */
public final class ClockView extends TouchView {
    final int radius;
    final int knob;
    final int hour;
    int minute;

    ClockView(Ui ui, int hour, int minute, int radiusPx, int knobPx) {
        super(ui);
        this.hour = hour;
        this.minute = minute;
        this.radius = radiusPx;
        this.knob = knobPx;
    }

    int size() {
        return 2 * radius + knob;
    }

    float centre() {
        return size() / 2f;
    }

    /** The minute at (x, y), or -1 off the dial or within a fifth of its radius of the centre. */
    int minuteAt(float x, float y) {
        double dx = x - centre();
        double dy = y - centre();
        double d = Math.hypot(dx, dy);
        if (d < radius / 5.0 || d > radius + knob / 2.0) return -1;
        double angle = Math.toDegrees(Math.atan2(dx, -dy));
        return (int) ((Math.round(angle / 6.0) + 60) % 60);
    }

    float[] hand(int at, double fraction) {
        double angle = Math.toRadians(at * 6.0);
        return new float[] {(float) (centre() + fraction * radius * Math.sin(angle)),
            (float) (centre() - fraction * radius * Math.cos(angle))};
    }

    @Override
    boolean grab(float x, float y) {
        return minuteAt(x, y) >= 0;
    }

    @Override
    void drag(float x0, float y0, float x, float y, boolean done) {
        int at = minuteAt(x, y);
        if (done && at >= 0) minute = at;
    }

    @Override
    protected void onDraw(Canvas canvas) {
        fill(ui.border);
        canvas.drawCircle(centre(), centre(), radius, paint);
        text(ui.text, 12);
        paint.setTextAlign(android.graphics.Paint.Align.CENTER);
        for (int m = 0; m < 60; m += 5) {
            float[] at = hand(m, 0.85);
            canvas.drawText(String.format(java.util.Locale.ROOT, "%02d", m), at[0],
                    at[1] + 4 * ui.density, paint);
        }
        float[] tip = hand(minute, 0.85);
        stroke(ui.accent, 2 * ui.density);
        canvas.drawLine(centre(), centre(), tip[0], tip[1], paint);
        stroke(ui.accent, 2 * ui.density);
        canvas.drawCircle(tip[0], tip[1], knob / 2f, paint);
        text(ui.text, 20);
        canvas.drawText(String.format(java.util.Locale.ROOT, "%02d:%02d", hour, minute), centre(),
                centre() + radius / 2.5f, paint);
    }
}
