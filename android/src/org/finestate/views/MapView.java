package org.finestate.views;

import android.graphics.Canvas;

/**
 * zoom_pan: a street map in a clipped viewport, panned by dragging: pan += round((p1 - p0) / G)
 * cells per axis, clamped to the map's reach. Pins sit at their map position plus the pan; the
 * crosshair stays fixed. A press anywhere on the map takes hold.
 */
public final class MapView extends TouchView {
    final int grid;
    final int[] cross;
    final int[] reach;
    final int[][] pins;  // map position of each pin, px
    final String[] names;
    final int pinSize;
    final int[] pan = new int[2];
    private final int[] start = new int[2];

    MapView(Ui ui, int gridPx, int[] cross, int[] reach, int[][] pins, String[] names, int pinPx) {
        super(ui);
        this.grid = gridPx;
        this.cross = cross;
        this.reach = reach;
        this.pins = pins;
        this.names = names;
        this.pinSize = pinPx;
    }

    /** Whole cells for a drag of d px (Math.round: half a cell rounds up). */
    int cells(float d) {
        return Math.round(d / grid);
    }

    int[] pinAt(int i) {
        return new int[] {pins[i][0] + pan[0] * grid, pins[i][1] + pan[1] * grid};
    }

    @Override
    boolean grab(float x, float y) {
        start[0] = pan[0];
        start[1] = pan[1];
        return true;
    }

    @Override
    void drag(float x0, float y0, float x, float y, boolean done) {
        pan[0] = Math.max(-reach[0], Math.min(reach[0], start[0] + cells(x - x0)));
        pan[1] = Math.max(-reach[1], Math.min(reach[1], start[1] + cells(y - y0)));
    }

    @Override
    protected void onDraw(Canvas canvas) {
        canvas.drawColor(0xffeef0e6);
        stroke(0xffd8dccb, ui.density);
        int ox = ((pan[0] * grid) % (4 * grid) + 4 * grid) % (4 * grid);
        int oy = ((pan[1] * grid) % (4 * grid) + 4 * grid) % (4 * grid);
        for (int x = ox; x < getWidth(); x += 4 * grid) canvas.drawLine(x, 0, x, getHeight(), paint);
        for (int y = oy; y < getHeight(); y += 4 * grid) canvas.drawLine(0, y, getWidth(), y, paint);
        for (int i = 0; i < pins.length; i++) {
            int[] at = pinAt(i);
            fill(i == 0 ? 0xffd93025 : 0xff5f6368);
            canvas.drawCircle(at[0], at[1], (i == 0 ? 8 : 5) * ui.density, paint);
            text(0xff202124, 11);
            canvas.drawText(names[i], at[0] + 10 * ui.density, at[1] + 4 * ui.density, paint);
        }
        stroke(0xff1a73e8, 2 * ui.density);
        float arm = 12 * ui.density;
        canvas.drawLine(cross[0] - arm, cross[1], cross[0] + arm, cross[1], paint);
        canvas.drawLine(cross[0], cross[1] - arm, cross[0], cross[1] + arm, paint);
    }
}
