package android.widget;

/** A JVM fake: Material's SeekBar style pads the track by 16 dp at each end (48 px at the fakes'
 * density 3), which the app adds to the sampled track. */
public abstract class AbsSeekBar extends ProgressBar {
    public AbsSeekBar(android.content.Context context) { super(context); setPadding(48, 0, 48, 0); }
    public android.graphics.drawable.Drawable getThumb() { return null; }
    public int getThumbOffset() { return 0; }
}
