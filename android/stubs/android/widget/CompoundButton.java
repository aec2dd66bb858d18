package android.widget;
public abstract class CompoundButton extends Button implements Checkable {
    public interface OnCheckedChangeListener { void onCheckedChanged(CompoundButton buttonView, boolean isChecked); }
    public CompoundButton(android.content.Context context) { super(context); }
    public void setButtonDrawable(android.graphics.drawable.Drawable drawable) { throw new RuntimeException(); }
    public void setOnCheckedChangeListener(OnCheckedChangeListener listener) { throw new RuntimeException(); }
    public boolean isChecked() { throw new RuntimeException(); }
    public void setChecked(boolean checked) { throw new RuntimeException(); }
    public void toggle() { throw new RuntimeException(); }
}
