package android.widget;
public class SeekBar extends AbsSeekBar {
    public SeekBar(android.content.Context context) { super(context); }
}
