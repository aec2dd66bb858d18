package android.widget;
public class RadioGroup extends LinearLayout {
    public RadioGroup(android.content.Context context) { super(context); }
    public void check(int id) { throw new RuntimeException(); }
    public int getCheckedRadioButtonId() { throw new RuntimeException(); }
}
