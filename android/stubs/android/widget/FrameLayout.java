package android.widget;
import android.content.Context;
public class FrameLayout extends android.view.ViewGroup {
    public static class LayoutParams extends android.view.ViewGroup.MarginLayoutParams {
        public LayoutParams(int width, int height) { super(width, height); }
    }
    public FrameLayout(Context context) { super(context); }
}
