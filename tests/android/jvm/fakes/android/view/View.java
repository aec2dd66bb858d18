package android.view;

import android.content.Context;
import android.graphics.Canvas;

/** A JVM fake of android.view.View for tests/android/test_app_logic.py: it keeps what the app
 * sets (id, layout params, padding, visibility, click listener). ViewGroup.layOut places views
 * by their layout params (a text without a size takes NOMINAL_W x NOMINAL_H); before that every
 * view sits at the origin, as large as its layout params. A click listener takes a press and
 * clicks on a release inside the view, as Android's. */
public class View {
    public static final int VISIBLE = 0;
    public static final int INVISIBLE = 4;
    public static final int GONE = 8;
    public static final int SYSTEM_UI_FLAG_HIDE_NAVIGATION = 2;
    public static final int SYSTEM_UI_FLAG_FULLSCREEN = 4;
    public static final int SYSTEM_UI_FLAG_IMMERSIVE_STICKY = 4096;
    public interface OnClickListener { void onClick(View v); }
    public static class MeasureSpec {
        public static final int EXACTLY = 1 << 30;
        public static final int UNSPECIFIED = 0;
        public static final int AT_MOST = -2147483648;
        public static int makeMeasureSpec(int size, int mode) { return size | mode; }
        public static int getSize(int measureSpec) { return measureSpec & 0x3fffffff; }
    }
    private final Context context;
    private ViewGroup.LayoutParams params;
    private int id = -1;
    private int visibility;
    private int[] padding = new int[4];
    private OnClickListener click;

    public View(Context context) { this.context = context; }
    public final void measure(int widthMeasureSpec, int heightMeasureSpec) {}
    public final int getMeasuredWidth() { return 0; }
    public final int getMeasuredHeight() { return 0; }
    public Context getContext() { return context; }
    public void setLayoutParams(ViewGroup.LayoutParams params) { this.params = params; }
    public ViewGroup.LayoutParams getLayoutParams() { return params; }
    public void setPadding(int left, int top, int right, int bottom) { padding = new int[] {left, top, right, bottom}; }
    public int getPaddingLeft() { return padding[0]; }
    public int getPaddingRight() { return padding[2]; }
    public int getPaddingTop() { return padding[1]; }
    public int getPaddingBottom() { return padding[3]; }
    public static final int NOMINAL_W = 120;
    public static final int NOMINAL_H = 40;
    protected int left;
    protected int top;
    protected int laidWidth = -1;
    protected int laidHeight = -1;
    public void getLocationOnScreen(int[] outLocation) { outLocation[0] = left; outLocation[1] = top; }
    // No layout: a view is as large as its layout params ask, MATCH_PARENT standing for a
    // 900 px card, WRAP_CONTENT for nothing; every view sits at the screen's origin.
    public final int getWidth() { return laidWidth >= 0 ? laidWidth : size(params == null ? 0 : params.width); }
    public final int getHeight() { return laidHeight >= 0 ? laidHeight : size(params == null ? 0 : params.height); }
    private static int size(int asked) { return asked == ViewGroup.LayoutParams.MATCH_PARENT ? 900 : Math.max(0, asked); }
    public void setVisibility(int visibility) { this.visibility = visibility; }
    public int getVisibility() { return visibility; }
    public void setBackgroundColor(int color) {}
    public void setOnClickListener(OnClickListener l) { click = l; }
    public boolean performClick() { if (click != null) click.onClick(this); return click != null; }
    public void setClickable(boolean clickable) {}
    public void setId(int id) { this.id = id; }
    public int getId() { return id; }
    public void invalidate() {}
    public void requestLayout() {}
    public boolean isLayoutRequested() { return false; }
    public void setMinimumHeight(int minHeight) {}
    public void setMinimumWidth(int minWidth) {}
    public boolean dispatchTouchEvent(MotionEvent event) { return onTouchEvent(event); }
    public boolean onTouchEvent(MotionEvent event) {
        if (click == null) return false;
        if (event.getActionMasked() == MotionEvent.ACTION_UP && event.getX() >= 0 && event.getY() >= 0
                && event.getX() < getWidth() && event.getY() < getHeight()) {
            click.onClick(this);
        }
        return true;
    }

    /** Places this view at (x, y) with `available` px of width; returns {width, height}. */
    public int[] fakePlace(int x, int y, int available) {
        return fakePlaceSelf(x, y, available);
    }

    /** This view's own box: by its params (see the class comment). */
    public final int[] fakePlaceSelf(int x, int y, int available) {
        left = x;
        top = y;
        int w = params == null ? ViewGroup.LayoutParams.WRAP_CONTENT : params.width;
        int h = params == null ? ViewGroup.LayoutParams.WRAP_CONTENT : params.height;
        laidWidth = w >= 0 ? w : w == ViewGroup.LayoutParams.MATCH_PARENT ? available : NOMINAL_W;
        laidHeight = h >= 0 ? h : NOMINAL_H;
        return new int[] {laidWidth, laidHeight};
    }
    protected void onDraw(Canvas canvas) {}
    protected void onMeasure(int widthMeasureSpec, int heightMeasureSpec) {}
    protected final void setMeasuredDimension(int measuredWidth, int measuredHeight) {}
    public final ViewParent getParent() { return null; }
    public void setSystemUiVisibility(int visibility) {}
    public void setSoundEffectsEnabled(boolean soundEffectsEnabled) {}
    public void setHapticFeedbackEnabled(boolean hapticFeedbackEnabled) {}
    public void setFocusable(boolean focusable) {}
    public void setEnabled(boolean enabled) {}
    public void jumpDrawablesToCurrentState() {}
}
