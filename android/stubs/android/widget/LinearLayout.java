package android.widget;
import android.content.Context;
public class LinearLayout extends android.view.ViewGroup {
    public static final int HORIZONTAL = 0;
    public static final int VERTICAL = 1;
    public static class LayoutParams extends android.view.ViewGroup.MarginLayoutParams {
        public LayoutParams(int width, int height) { super(width, height); }
        public LayoutParams(int width, int height, float weight) { super(width, height); }
    }
    public LinearLayout(Context context) { super(context); }
    public void setOrientation(int orientation) { throw new RuntimeException(); }
    public void setGravity(int gravity) { throw new RuntimeException(); }
}
