package android.view;

/** A JVM fake of android.view.MotionEvent: action and position. */
public final class MotionEvent {
    public static final int ACTION_DOWN = 0;
    public static final int ACTION_UP = 1;
    public static final int ACTION_MOVE = 2;
    public static final int ACTION_CANCEL = 3;
    private final int action;
    private final float x;
    private final float y;
    private MotionEvent(int action, float x, float y) { this.action = action; this.x = x; this.y = y; }
    public static MotionEvent obtain(long downTime, long eventTime, int action, float x, float y, int metaState) {
        return new MotionEvent(action, x, y);
    }
    public final int getActionMasked() { return action; }
    public final float getX() { return x; }
    public final float getY() { return y; }
    public final void recycle() {}
}
