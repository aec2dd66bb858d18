package android.widget;

/** A JVM fake: a checkable button that keeps its checked state (a RadioGroup unchecks the rest). */
public abstract class CompoundButton extends Button implements Checkable {
    public interface OnCheckedChangeListener { void onCheckedChanged(CompoundButton buttonView, boolean isChecked); }
    private boolean checked;
    public CompoundButton(android.content.Context context) { super(context); }
    public void setButtonDrawable(android.graphics.drawable.Drawable drawable) {}
    public void setOnCheckedChangeListener(OnCheckedChangeListener listener) {}
    public boolean isChecked() { return checked; }
    public void setChecked(boolean checked) { this.checked = checked; }
    public void toggle() { checked = !checked; }
}
