package org.finestate.views;

import android.graphics.Canvas;

/** resizable_pane: an editor with a side (left, right) or bottom pane whose size is dragged by
 * the splitter handle between them. */
public final class PaneView extends SizeDragView {
    final String side;
    final int hit;
    final String pane;

    PaneView(Ui ui, String side, int size, int min, int max, int step, int hitPx, String pane) {
        super(ui, size, min, max, step, !"bottom".equals(side), "left".equals(side) ? 1 : -1);
        this.side = side;
        this.hit = hitPx;
        this.pane = pane;
    }

    /** The splitter's position (x for a side pane, y for a bottom pane), in view pixels. */
    int edge() {
        int px = ui.px(size);
        if ("left".equals(side)) return px;
        if ("right".equals(side)) return getWidth() - px;
        return getHeight() - px;
    }

    @Override
    int[] handle() {
        int e = edge();
        int h = hit / 2;
        return alongX ? new int[] {e - h, 0, e + h + 1, getHeight()}
                : new int[] {0, e - h, getWidth(), e + h + 1};
    }

    @Override
    protected void onDraw(Canvas canvas) {
        canvas.drawColor(ui.surface);
        int e = edge();
        fill(ui.background);
        if ("left".equals(side)) canvas.drawRect(0, 0, e, getHeight(), paint);
        else if ("right".equals(side)) canvas.drawRect(e, 0, getWidth(), getHeight(), paint);
        else canvas.drawRect(0, e, getWidth(), getHeight(), paint);
        stroke(ui.accent, 2 * ui.density);
        if (alongX) canvas.drawLine(e, 0, e, getHeight(), paint);
        else canvas.drawLine(0, e, getWidth(), e, paint);
        text(ui.text, 12);
        float tx = "left".equals(side) || "bottom".equals(side) ? 8 * ui.density : e + 8 * ui.density;
        float ty = "bottom".equals(side) ? e + 18 * ui.density : 18 * ui.density;
        canvas.drawText(pane + " " + size, tx, ty, paint);
    }
}
