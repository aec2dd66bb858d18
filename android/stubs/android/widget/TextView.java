package android.widget;
import android.content.Context;
public class TextView extends android.view.View {
    public TextView(Context context) { super(context); }
    public final void setText(CharSequence text) { throw new RuntimeException(); }
    public CharSequence getText() { throw new RuntimeException(); }
    public void setTextSize(int unit, float size) { throw new RuntimeException(); }
    public void setTextColor(int color) { throw new RuntimeException(); }
    public void setGravity(int gravity) { throw new RuntimeException(); }
    public void setSingleLine(boolean singleLine) { throw new RuntimeException(); }
    public void setAllCaps(boolean allCaps) { throw new RuntimeException(); }
}
