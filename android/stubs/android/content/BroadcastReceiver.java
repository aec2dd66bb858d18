package android.content;
public abstract class BroadcastReceiver {
    public BroadcastReceiver() { throw new RuntimeException(); }
    public static class PendingResult {
        public final void setResultCode(int code) { throw new RuntimeException(); }
        public final void setResultData(String data) { throw new RuntimeException(); }
        public final void finish() { throw new RuntimeException(); }
    }
    public abstract void onReceive(Context context, Intent intent);
    public final PendingResult goAsync() { throw new RuntimeException(); }
    public final void setResultCode(int code) { throw new RuntimeException(); }
    public final void setResultData(String data) { throw new RuntimeException(); }
}
