package org.finestate.views;

import android.os.SystemClock;
import android.view.MotionEvent;

/**
 * The goal band of a drag type, measured on the control itself: on an invisible copy showing the
 * same state, a drag from the centre pixel of `now` (where the oracle and the audit press) is
 * released at every pixel along the axis across `core`, the state read back, the copy restored.
 * The band is the longest run of release positions that yield exactly the goal; it spans `core`
 * across the axis. The same motion events as `input swipe` (down, moves, up) reach the views, so
 * the widget's own touch handling (a SeekBar's padding and rounding, ...) decides, not a formula.
 */
final class Probe {
    private static final int MOVES = 8;

    private Probe() {}

    /** The goal band of a drag from the centre of `now`, or null when no release yields the goal. */
    static int[] band(Control copy, int[] core, int[] now, Object goal, boolean alongX) {
        return scan(copy, core, now, goal, alongX, false);
    }

    /** The goal band of a tap along the middle of `core` (a RatingBar's stars), or null. */
    static int[] tapBand(Control copy, int[] core, Object goal, boolean alongX) {
        return scan(copy, core, core, goal, alongX, true);
    }

    private static int[] scan(Control copy, int[] core, int[] now, Object goal, boolean alongX,
                              boolean tap) {
        String key = java.util.Arrays.toString(core) + java.util.Arrays.toString(now) + alongX + tap
                + Json.write(goal);
        if (copy.bands.containsKey(key)) return copy.bands.get(key);
        int[] band = measure(copy, core, now, goal, alongX, tap);
        copy.bands.put(key, band);
        return band;
    }

    private static int[] measure(Control copy, int[] core, int[] now, Object goal, boolean alongX,
                                 boolean tap) {
        Object start = copy.state();
        int x0 = Ui.centre(now[0], now[2]);
        int y0 = Ui.centre(now[1], now[3]);
        int lo = alongX ? core[0] : core[1];
        int hi = alongX ? core[2] : core[3];
        int bestLo = 0;
        int bestLen = 0;
        int runLo = 0;
        int runLen = 0;
        for (int pos = lo; pos <= hi; pos++) {
            int x1 = alongX ? pos : x0;
            int y1 = alongX ? y0 : pos;
            Object after = tap ? drag(copy, x1, y1, x1, y1) : drag(copy, x0, y0, x1, y1);
            boolean hit = copy.same(after, goal);
            copy.apply(start);
            if (hit) {
                if (runLen == 0) runLo = pos;
                runLen++;
                if (runLen > bestLen) {
                    bestLen = runLen;
                    bestLo = runLo;
                }
            } else {
                runLen = 0;
            }
        }
        if (bestLen == 0) return null;
        int bestHi = bestLo + bestLen - 1;
        return alongX ? new int[] {bestLo, core[1], bestHi, core[3]}
                : new int[] {core[0], bestLo, core[2], bestHi};
    }

    /** Drags across the copy from (x0, y0) to (x1, y1), screen pixels (a tap when they are the
     * same point: down and up, as `input tap`); returns the state after. */
    static Object drag(Control copy, int x0, int y0, int x1, int y1) {
        int[] at = new int[2];
        copy.card.getLocationOnScreen(at);
        long down = SystemClock.uptimeMillis();
        send(copy, down, down, MotionEvent.ACTION_DOWN, x0 - at[0], y0 - at[1]);
        for (int i = 1; i <= MOVES && (x1 != x0 || y1 != y0); i++) {
            float x = x0 + (x1 - x0) * i / (float) MOVES;
            float y = y0 + (y1 - y0) * i / (float) MOVES;
            send(copy, down, down + 10 * i, MotionEvent.ACTION_MOVE, x - at[0], y - at[1]);
        }
        send(copy, down, down + 10 * MOVES + 10, MotionEvent.ACTION_UP, x1 - at[0], y1 - at[1]);
        return copy.state();
    }

    private static void send(Control copy, long down, long time, int action, float x, float y) {
        MotionEvent event = MotionEvent.obtain(down, time, action, x, y, 0);
        copy.card.dispatchTouchEvent(event);
        event.recycle();
    }
}
