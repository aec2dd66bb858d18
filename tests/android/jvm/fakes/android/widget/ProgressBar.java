package android.widget;

/** A JVM fake: progress kept and clamped to [0, max], as Android's. */
public class ProgressBar extends android.view.View {
    private int max = 100;
    private int progress;
    public ProgressBar(android.content.Context context) { super(context); }
    public synchronized void setMax(int max) { this.max = max; progress = Math.min(progress, max); }
    public synchronized int getMax() { return max; }
    public synchronized void setProgress(int progress) { this.progress = Math.max(0, Math.min(max, progress)); }
    public synchronized int getProgress() { return progress; }
    public synchronized void setSecondaryProgress(int secondaryProgress) {}
}
