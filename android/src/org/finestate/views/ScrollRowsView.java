package org.finestate.views;

import android.graphics.Canvas;

/**
 * scrollbar: a list showing `visible` of `rows` rows beside a scroll track; dragging the thumb
 * scrolls by whole rows: first = start + round(drag / (track - thumb) * (rows - visible)),
 * clamped. A press must land on the thumb (its full hit width across).
 */
public final class ScrollRowsView extends TouchView {
    final String[] lines;
    final int visible;
    final int row;
    final int thumb;
    final int trackWidth;
    int first;
    private int start;

    ScrollRowsView(Ui ui, String[] lines, int visible, int rowPx, int thumbPx, int trackWidthPx, int first) {
        super(ui);
        this.lines = lines;
        this.visible = visible;
        this.row = rowPx;
        this.thumb = thumbPx;
        this.trackWidth = trackWidthPx;
        this.first = first;
    }

    int track() {
        return visible * row;
    }

    int maxFirst() {
        return lines.length - visible;
    }

    int thumbTop() {
        return (int) Math.round(first * (track() - thumb) / (double) maxFirst());
    }

    @Override
    boolean grab(float x, float y) {
        start = first;
        int top = thumbTop();
        return x >= getWidth() - trackWidth && y >= top && y < top + thumb;
    }

    @Override
    void drag(float x0, float y0, float x, float y, boolean done) {
        int k = start + Math.round((y - y0) / (track() - thumb) * maxFirst());
        first = Math.max(0, Math.min(maxFirst(), k));
    }

    @Override
    protected void onDraw(Canvas canvas) {
        canvas.drawColor(ui.surface);
        for (int i = 0; i < visible; i++) {
            text(ui.text, 13);
            canvas.drawText(lines[first + i], 8 * ui.density, i * row + row / 2f + 5 * ui.density, paint);
        }
        fill(ui.background);
        canvas.drawRect(getWidth() - trackWidth, 0, getWidth(), track(), paint);
        fill(ui.muted);
        int top = thumbTop();
        canvas.drawRect(getWidth() - trackWidth + 2 * ui.density, top, getWidth() - 2 * ui.density, top + thumb, paint);
    }
}
