package android.widget;
public class ProgressBar extends android.view.View {
    public ProgressBar(android.content.Context context) { super(context); }
    public synchronized void setMax(int max) { throw new RuntimeException(); }
    public synchronized int getMax() { throw new RuntimeException(); }
    public synchronized void setProgress(int progress) { throw new RuntimeException(); }
    public synchronized int getProgress() { throw new RuntimeException(); }
    public synchronized void setSecondaryProgress(int secondaryProgress) { throw new RuntimeException(); }
}
