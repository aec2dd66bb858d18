package org.finestate.views;

import android.graphics.Paint;
import android.view.MotionEvent;
import android.view.View;

/**
 * A custom View operated by one touch: a press `grab`s it (or is ignored), every move and the
 * release `drag` it from the press point. Subclasses hold the state and draw it.
 */
public abstract class TouchView extends View {
    final Ui ui;
    final Paint paint = new Paint(Paint.ANTI_ALIAS_FLAG);
    private boolean held;
    private float downX;
    private float downY;

    TouchView(Ui ui) {
        super(ui.context);
        this.ui = ui;
        setSoundEffectsEnabled(false);
    }

    /** True when a press at (x, y) takes hold (view coordinates). */
    abstract boolean grab(float x, float y);

    /** The pointer is at (x, y), pressed at (x0, y0); `done` on the release. */
    abstract void drag(float x0, float y0, float x, float y, boolean done);

    @Override
    public boolean onTouchEvent(MotionEvent event) {
        int action = event.getActionMasked();
        if (action == MotionEvent.ACTION_DOWN) {
            held = grab(event.getX(), event.getY());
            downX = event.getX();
            downY = event.getY();
            if (held) drag(downX, downY, downX, downY, false);
            return held;
        }
        if (!held) return false;
        if (action == MotionEvent.ACTION_MOVE || action == MotionEvent.ACTION_UP) {
            drag(downX, downY, event.getX(), event.getY(), action == MotionEvent.ACTION_UP);
            invalidate();
        }
        if (action == MotionEvent.ACTION_UP || action == MotionEvent.ACTION_CANCEL) held = false;
        return true;
    }

    void fill(int colour) {
        paint.setStyle(Paint.Style.FILL);
        paint.setColor(colour);
    }

    void stroke(int colour, float width) {
        paint.setStyle(Paint.Style.STROKE);
        paint.setStrokeWidth(width);
        paint.setColor(colour);
    }

    void text(int colour, float sp) {
        paint.setStyle(Paint.Style.FILL);
        paint.setColor(colour);
        paint.setTextSize(sp * ui.density);
    }

    /** The largest square around (cx, cy) inside `bounds` (view coordinates, inclusive) whose
     * every pixel `at` maps to `goal`: the goal box of a region no rectangle fills. */
    int[] square(int cx, int cy, int[] bounds, PixelTest at) {
        if (!at.hits(cx, cy)) return null;
        int h = 0;
        while (true) {
            int n = h + 1;
            if (cx - n < bounds[0] || cy - n < bounds[1] || cx + n > bounds[2] || cy + n > bounds[3]) break;
            boolean all = true;
            for (int i = -n; i <= n && all; i++) {
                all = at.hits(cx + i, cy - n) && at.hits(cx + i, cy + n) && at.hits(cx - n, cy + i)
                        && at.hits(cx + n, cy + i);
            }
            if (!all) break;
            h = n;
        }
        return new int[] {cx - h, cy - h, cx + h + 1, cy + h + 1};  // right/bottom exclusive
    }

    interface PixelTest {
        boolean hits(int x, int y);
    }
}
