package org.finestate.views;

import android.graphics.Canvas;

/**
 * chart_point: a line chart of columns; the target column's point follows the pointer's height,
 * snapped to the value grid. A press must land in the target column (its point's handle).
 */
public final class ChartView extends TouchView {
    final int[] ks;  // each column's value index, -1 for none
    final int target;
    final int last;
    final int perStep;
    final int column;
    final int pad;
    final String[] labels;
    final String[] values;  // what each value index reads, for the axis
    final int tick;  // value indexes between labelled grid lines

    ChartView(Ui ui, int[] ks, int target, String[] values, int tick, int perStepPx, int columnPx,
              String[] labels) {
        super(ui);
        this.values = values;
        this.tick = Math.max(1, tick);
        int last = values.length - 1;
        this.ks = ks;
        this.target = target;
        this.last = last;
        this.perStep = perStepPx;
        this.column = columnPx;
        this.pad = ui.px(24);
        this.labels = labels;
    }

    int width() {
        return column * ks.length;
    }

    int height() {
        return 2 * pad + last * perStep + ui.px(16);
    }

    int yOf(int k) {
        return pad + (last - k) * perStep;
    }

    int kAt(float y) {
        return Math.max(0, Math.min(last, Math.round((pad + last * perStep - y) / perStep)));
    }

    @Override
    boolean grab(float x, float y) {
        return x >= target * column && x < (target + 1) * column && y >= 0
                && y < 2 * pad + last * perStep;
    }

    @Override
    void drag(float x0, float y0, float x, float y, boolean done) {
        ks[target] = kAt(y);
    }

    @Override
    protected void onDraw(Canvas canvas) {
        for (int k = 0; k <= last; k += tick) {
            stroke(ui.border, ui.density);
            canvas.drawLine(0, yOf(k), width(), yOf(k), paint);
            text(ui.muted, 10);
            canvas.drawText(values[k], 2 * ui.density, yOf(k) - 2 * ui.density, paint);
        }
        stroke(ui.accent, 2 * ui.density);
        for (int i = 1; i < ks.length; i++) {
            if (ks[i - 1] < 0 || ks[i] < 0) continue;
            canvas.drawLine((i - 0.5f) * column, yOf(ks[i - 1]), (i + 0.5f) * column, yOf(ks[i]), paint);
        }
        for (int i = 0; i < ks.length; i++) {
            if (ks[i] < 0) continue;
            fill(i == target ? ui.accent : ui.text);
            canvas.drawCircle((i + 0.5f) * column, yOf(ks[i]), (i == target ? 7 : 4) * ui.density, paint);
        }
        text(ui.muted, 11);
        paint.setTextAlign(android.graphics.Paint.Align.CENTER);
        for (int i = 0; i < labels.length; i++) {
            canvas.drawText(labels[i], (i + 0.5f) * column, height() - 4 * ui.density, paint);
        }
    }
}
