package android.widget;
public abstract class AbsSeekBar extends ProgressBar {
    public AbsSeekBar(android.content.Context context) { super(context); }
    public android.graphics.drawable.Drawable getThumb() { throw new RuntimeException(); }
    public int getThumbOffset() { throw new RuntimeException(); }
}
