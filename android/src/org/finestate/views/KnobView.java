package org.finestate.views;

import android.graphics.Canvas;

/**
 * knob: a dial set by the angle of the pointer around its centre: 0 degrees at the top,
 * clockwise, the scale sweeping -135..+135 degrees, rounded to the nearest step; the bottom gap
 * clamps to the nearer end; within a quarter radius of the centre the value stays.
 */
public final class KnobView extends TouchView {
    static final double SWEEP = 135.0;
    final int last;
    final int radius;
    final int grabSize;
    final String[] values;  // what each index reads, shown in the centre
    int k;

    KnobView(Ui ui, String[] values, int k, int radiusPx, int grabPx) {
        super(ui);
        this.values = values;
        int last = values.length - 1;
        this.last = last;
        this.k = k;
        this.radius = radiusPx;
        this.grabSize = grabPx;
    }

    int size() {
        return 2 * radius + grabSize;
    }

    float centre() {
        return size() / 2f;
    }

    /** The value index at (x, y), or -1 within a quarter radius of the centre. */
    int indexAt(float x, float y) {
        double dx = x - centre();
        double dy = y - centre();
        if (Math.hypot(dx, dy) < radius / 4.0) return -1;
        double angle = Math.toDegrees(Math.atan2(dx, -dy));  // 0 at the top, clockwise
        angle = Math.max(-SWEEP, Math.min(SWEEP, angle));
        return (int) Math.round((angle + SWEEP) / (2 * SWEEP) * last);
    }

    /** The indicator's tip for index `at`, at three quarters of the radius. */
    float[] tip(int at) {
        double angle = Math.toRadians(-SWEEP + 2 * SWEEP * at / last);
        return new float[] {(float) (centre() + 0.75 * radius * Math.sin(angle)),
            (float) (centre() - 0.75 * radius * Math.cos(angle))};
    }

    @Override
    boolean grab(float x, float y) {
        float[] t = tip(k);
        boolean onTip = Math.abs(x - t[0]) <= grabSize / 2f && Math.abs(y - t[1]) <= grabSize / 2f;
        return onTip || Math.hypot(x - centre(), y - centre()) <= radius;
    }

    @Override
    void drag(float x0, float y0, float x, float y, boolean done) {
        int at = indexAt(x, y);
        if (at >= 0) k = at;
    }

    @Override
    protected void onDraw(Canvas canvas) {
        fill(ui.border);
        canvas.drawCircle(centre(), centre(), radius, paint);
        fill(ui.surface);
        canvas.drawCircle(centre(), centre(), radius - 3 * ui.density, paint);
        float[] t = tip(k);
        stroke(ui.accent, 4 * ui.density);
        canvas.drawLine(centre(), centre(), t[0], t[1], paint);
        fill(ui.accent);
        canvas.drawCircle(t[0], t[1], 6 * ui.density, paint);
        text(ui.text, 14);
        paint.setTextAlign(android.graphics.Paint.Align.CENTER);
        canvas.drawText(values[k], centre(), centre() + radius / 2f, paint);
    }
}
