package android.app;

import android.content.*;

/** A JVM fake of android.app.Activity: a context whose display has a phone's density. */
public class Activity extends Context {
    private final android.content.res.Resources resources = new android.content.res.Resources();
    public Activity() {}
    protected void onCreate(android.os.Bundle savedInstanceState) {}
    protected void onNewIntent(Intent intent) {}
    protected void onDestroy() {}
    public Intent getIntent() { return null; }
    public void setIntent(Intent newIntent) {}
    public void setContentView(android.view.View view) {}
    public android.view.Window getWindow() { return null; }
    public final boolean requestWindowFeature(int featureId) { return true; }
    public void overridePendingTransition(int enterAnim, int exitAnim) {}
    public android.content.res.Resources getResources() { return resources; }
    public Intent registerReceiver(BroadcastReceiver receiver, IntentFilter filter) { return null; }
    public void unregisterReceiver(BroadcastReceiver receiver) {}
}
