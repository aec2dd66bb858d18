package android.view;
public final class MotionEvent {
    public static final int ACTION_DOWN = 0;
    public static final int ACTION_UP = 1;
    public static final int ACTION_MOVE = 2;
    public static final int ACTION_CANCEL = 3;
    public static MotionEvent obtain(long downTime, long eventTime, int action, float x, float y, int metaState) { throw new RuntimeException(); }
    public final int getActionMasked() { throw new RuntimeException(); }
    public final float getX() { throw new RuntimeException(); }
    public final float getY() { throw new RuntimeException(); }
    public final void recycle() { throw new RuntimeException(); }
}
