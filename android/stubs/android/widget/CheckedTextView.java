package android.widget;
public class CheckedTextView extends TextView implements Checkable {
    public CheckedTextView(android.content.Context context) { super(context); }
    public boolean isChecked() { throw new RuntimeException(); }
    public void setChecked(boolean checked) { throw new RuntimeException(); }
    public void toggle() { throw new RuntimeException(); }
}
