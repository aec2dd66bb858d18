package android.widget;
public class CheckBox extends CompoundButton {
    public CheckBox(android.content.Context context) { super(context); }
}
