package android.widget;
public class Switch extends CompoundButton {
    public Switch(android.content.Context context) { super(context); }
}
