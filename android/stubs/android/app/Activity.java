package android.app;
import android.content.*;
public class Activity extends Context {
    public Activity() { throw new RuntimeException(); }
    protected void onCreate(android.os.Bundle savedInstanceState) { throw new RuntimeException(); }
    protected void onNewIntent(Intent intent) { throw new RuntimeException(); }
    protected void onDestroy() { throw new RuntimeException(); }
    public Intent getIntent() { throw new RuntimeException(); }
    public void setIntent(Intent newIntent) { throw new RuntimeException(); }
    public void setContentView(android.view.View view) { throw new RuntimeException(); }
    public android.view.Window getWindow() { throw new RuntimeException(); }
    public final boolean requestWindowFeature(int featureId) { throw new RuntimeException(); }
    public void overridePendingTransition(int enterAnim, int exitAnim) { throw new RuntimeException(); }
    public android.content.res.Resources getResources() { throw new RuntimeException(); }
    public Intent registerReceiver(BroadcastReceiver receiver, IntentFilter filter) { throw new RuntimeException(); }
    public void unregisterReceiver(BroadcastReceiver receiver) { throw new RuntimeException(); }
}
