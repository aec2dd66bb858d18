package org.finestate.views;

/**
 * A size in CSS px (taken as dp) set by dragging a handle: size = the start size plus the drag
 * along the axis (in dp, `sign` saying which way grows it), snapped to min + k * step, clamped.
 * resizable_pane and table_column draw their own panes and columns around it.
 */
public abstract class SizeDragView extends TouchView {
    final int min;
    final int max;
    final int step;
    final boolean alongX;
    final int sign;
    int size;
    private int start;

    SizeDragView(Ui ui, int size, int min, int max, int step, boolean alongX, int sign) {
        super(ui);
        this.size = size;
        this.min = min;
        this.max = max;
        this.step = step;
        this.alongX = alongX;
        this.sign = sign;
    }

    /** The handle's rectangle in view coordinates: {left, top, right, bottom}, exclusive. */
    abstract int[] handle();

    @Override
    boolean grab(float x, float y) {
        int[] h = handle();
        start = size;
        return x >= h[0] && x < h[2] && y >= h[1] && y < h[3];
    }

    @Override
    void drag(float x0, float y0, float x, float y, boolean done) {
        float moved = sign * (alongX ? x - x0 : y - y0) / ui.density;
        int k = Math.round((start + moved - min) / step);
        size = Math.max(min, Math.min(max, min + k * step));
    }
}
