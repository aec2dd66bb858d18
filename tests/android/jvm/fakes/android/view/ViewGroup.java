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
    /** Every child sits at the origin too: a press goes to the last child that takes it, the
     * rest of the gesture to that child, as Android's touch targets. */
    @Override
    public boolean dispatchTouchEvent(MotionEvent event) {
        if (event.getActionMasked() == MotionEvent.ACTION_DOWN) {
            target = null;
            for (int i = children.size() - 1; i >= 0 && target == null; i--) {
                if (children.get(i).dispatchTouchEvent(event)) target = children.get(i);
            }
            return target != null;
        }
        return target != null && target.dispatchTouchEvent(event);
    }
}
