package android.os;
public class Handler {
    public Handler(Looper looper) { throw new RuntimeException(); }
    public final boolean post(Runnable r) { throw new RuntimeException(); }
    public final boolean postDelayed(Runnable r, long delayMillis) { throw new RuntimeException(); }
    public final void removeCallbacks(Runnable r) { throw new RuntimeException(); }
}
