package android.widget;
public class SeekBar extends AbsSeekBar {
    public interface OnSeekBarChangeListener {
        void onProgressChanged(SeekBar seekBar, int progress, boolean fromUser);
        void onStartTrackingTouch(SeekBar seekBar);
        void onStopTrackingTouch(SeekBar seekBar);
    }
    public void setOnSeekBarChangeListener(OnSeekBarChangeListener l) { throw new RuntimeException(); }
    public SeekBar(android.content.Context context) { super(context); }
}
