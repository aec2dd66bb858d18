package android.widget;
public interface Checkable {
    void setChecked(boolean checked);
    boolean isChecked();
    void toggle();
}
