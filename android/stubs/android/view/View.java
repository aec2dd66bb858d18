package android.view;
import android.content.Context;
import android.graphics.Canvas;
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
        public static int makeMeasureSpec(int size, int mode) { throw new RuntimeException(); }
        public static int getSize(int measureSpec) { throw new RuntimeException(); }
    }
    public View(Context context) { throw new RuntimeException(); }
    public final void measure(int widthMeasureSpec, int heightMeasureSpec) { throw new RuntimeException(); }
    public final int getMeasuredWidth() { throw new RuntimeException(); }
    public final int getMeasuredHeight() { throw new RuntimeException(); }
    public Context getContext() { throw new RuntimeException(); }
    public void setLayoutParams(ViewGroup.LayoutParams params) { throw new RuntimeException(); }
    public ViewGroup.LayoutParams getLayoutParams() { throw new RuntimeException(); }
    public void setPadding(int left, int top, int right, int bottom) { throw new RuntimeException(); }
    public int getPaddingLeft() { throw new RuntimeException(); }
    public int getPaddingRight() { throw new RuntimeException(); }
    public int getPaddingTop() { throw new RuntimeException(); }
    public int getPaddingBottom() { throw new RuntimeException(); }
    public void getLocationOnScreen(int[] outLocation) { throw new RuntimeException(); }
    public final int getWidth() { throw new RuntimeException(); }
    public final int getHeight() { throw new RuntimeException(); }
    public void setVisibility(int visibility) { throw new RuntimeException(); }
    public int getVisibility() { throw new RuntimeException(); }
    public void setBackgroundColor(int color) { throw new RuntimeException(); }
    public void setOnClickListener(OnClickListener l) { throw new RuntimeException(); }
    public void setClickable(boolean clickable) { throw new RuntimeException(); }
    public void setId(int id) { throw new RuntimeException(); }
    public int getId() { throw new RuntimeException(); }
    public void invalidate() { throw new RuntimeException(); }
    public void requestLayout() { throw new RuntimeException(); }
    public boolean isLayoutRequested() { throw new RuntimeException(); }
    public void setMinimumHeight(int minHeight) { throw new RuntimeException(); }
    public void setMinimumWidth(int minWidth) { throw new RuntimeException(); }
    public boolean dispatchTouchEvent(MotionEvent event) { throw new RuntimeException(); }
    public boolean onTouchEvent(MotionEvent event) { throw new RuntimeException(); }
    protected void onDraw(Canvas canvas) { throw new RuntimeException(); }
    protected void onMeasure(int widthMeasureSpec, int heightMeasureSpec) { throw new RuntimeException(); }
    protected final void setMeasuredDimension(int measuredWidth, int measuredHeight) { throw new RuntimeException(); }
    public final ViewParent getParent() { throw new RuntimeException(); }
    public void setSystemUiVisibility(int visibility) { throw new RuntimeException(); }
    public void setSoundEffectsEnabled(boolean soundEffectsEnabled) { throw new RuntimeException(); }
    public void setHapticFeedbackEnabled(boolean hapticFeedbackEnabled) { throw new RuntimeException(); }
    public void setFocusable(boolean focusable) { throw new RuntimeException(); }
    public void setEnabled(boolean enabled) { throw new RuntimeException(); }
    public void jumpDrawablesToCurrentState() { throw new RuntimeException(); }
}
