package android.content;
public abstract class Context {
    public abstract android.content.res.Resources getResources();
    public abstract Intent registerReceiver(BroadcastReceiver receiver, IntentFilter filter);
    public abstract void unregisterReceiver(BroadcastReceiver receiver);
}
