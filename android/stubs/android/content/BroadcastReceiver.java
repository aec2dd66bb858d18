package android.content;
public abstract class BroadcastReceiver {
    public BroadcastReceiver() { throw new RuntimeException(); }
    public abstract void onReceive(Context context, Intent intent);
    public final void setResultCode(int code) { throw new RuntimeException(); }
    public final void setResultData(String data) { throw new RuntimeException(); }
}
