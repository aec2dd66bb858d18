package android.widget;

/** A JVM fake: check(id) checks that child and unchecks the others, as Android's. */
public class RadioGroup extends LinearLayout {
    public interface OnCheckedChangeListener { void onCheckedChanged(RadioGroup group, int checkedId); }
    private int checked = -1;
    private OnCheckedChangeListener listener;
    public RadioGroup(android.content.Context context) { super(context); }
    public void setOnCheckedChangeListener(OnCheckedChangeListener listener) { this.listener = listener; }
    public void check(int id) {
        checked = id;
        for (int i = 0; i < getChildCount(); i++) {
            ((CompoundButton) getChildAt(i)).setChecked(getChildAt(i).getId() == id);
        }
        if (listener != null) listener.onCheckedChanged(this, id);
    }
    public int getCheckedRadioButtonId() { return checked; }
}
