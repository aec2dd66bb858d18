package android.widget;
public class RadioGroup extends LinearLayout {
    public interface OnCheckedChangeListener { void onCheckedChanged(RadioGroup group, int checkedId); }
    public void setOnCheckedChangeListener(OnCheckedChangeListener listener) { throw new RuntimeException(); }
    public RadioGroup(android.content.Context context) { super(context); }
    public void check(int id) { throw new RuntimeException(); }
    public int getCheckedRadioButtonId() { throw new RuntimeException(); }
}
