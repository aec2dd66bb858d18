package android.view;

import java.util.ArrayList;

import android.content.Context;

/** A JVM fake of android.view.ViewGroup: it keeps its children and their layout params. */
public abstract class ViewGroup extends View implements ViewParent {
    public static class LayoutParams {
        public static final int MATCH_PARENT = -1;
        public static final int WRAP_CONTENT = -2;
        public int width;
        public int height;
        public LayoutParams(int width, int height) { this.width = width; this.height = height; }
    }
    public static class MarginLayoutParams extends LayoutParams {
        public int leftMargin;
        public int topMargin;
        public int rightMargin;
        public int bottomMargin;
        public MarginLayoutParams(int width, int height) { super(width, height); }
    }
    private final ArrayList<View> children = new ArrayList<View>();
    public ViewGroup(Context context) { super(context); }
    public void addView(View child) { children.add(child); }
    public void addView(View child, LayoutParams params) { child.setLayoutParams(params); children.add(child); }
    public void removeAllViews() { children.clear(); }
    public int getChildCount() { return children.size(); }
    public View getChildAt(int index) { return children.get(index); }
    public void setClipChildren(boolean clipChildren) {}
    private View target;
    private boolean self;

    /** A press goes to the last child under it that takes it (else to this view), the rest of
     * the gesture to the same view, in its own coordinates: Android's touch targets. */
    @Override
    public boolean dispatchTouchEvent(MotionEvent event) {
        if (event.getActionMasked() == MotionEvent.ACTION_DOWN) {
            target = null;
            self = false;
            for (int i = children.size() - 1; i >= 0 && target == null; i--) {
                View child = children.get(i);
                float x = event.getX() - (child.left - left);
                float y = event.getY() - (child.top - top);
                boolean under = child.getVisibility() == VISIBLE && x >= 0 && y >= 0
                        && x < child.getWidth() && y < child.getHeight();
                if (under && child.dispatchTouchEvent(shifted(event, child))) target = child;
            }
            if (target == null) self = onTouchEvent(event);
            return target != null || self;
        }
        if (target != null) return target.dispatchTouchEvent(shifted(event, target));
        return self && onTouchEvent(event);
    }

    private MotionEvent shifted(MotionEvent event, View child) {
        return MotionEvent.obtain(0, 0, event.getActionMasked(), event.getX() - (child.left - left),
                event.getY() - (child.top - top), 0);
    }

    /** Lays `root` out at (x, y), `width` px wide (the fakes' layout: see View). */
    public static void layOut(View root, int x, int y, int width) {
        root.fakePlace(x, y, width);
    }

    /** A frame: children at their margins; wrapped to them. */
    @Override
    public int[] fakePlace(int x, int y, int available) {
        int[] own = fakePlaceSelf(x, y, available);
        int right = 0;
        int bottom = 0;
        for (View child : children) {
            LayoutParams lp = child.getLayoutParams();
            int ml = lp instanceof MarginLayoutParams ? ((MarginLayoutParams) lp).leftMargin : 0;
            int mt = lp instanceof MarginLayoutParams ? ((MarginLayoutParams) lp).topMargin : 0;
            int[] size = child.fakePlace(x + ml, y + mt, own[0] - ml);
            right = Math.max(right, ml + size[0]);
            bottom = Math.max(bottom, mt + size[1]);
        }
        fakeWrap(right, bottom);
        return new int[] {getWidth(), getHeight()};
    }

    /** A WRAP_CONTENT side takes the content's size. */
    protected void fakeWrap(int width, int height) {
        LayoutParams lp = getLayoutParams();
        if (lp == null || lp.width == LayoutParams.WRAP_CONTENT) laidWidth = width;
        if (lp == null || lp.height == LayoutParams.WRAP_CONTENT) laidHeight = height;
    }

    protected java.util.List<View> fakeChildren() {
        return children;
    }
}
