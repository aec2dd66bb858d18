package org.finestate.views;

import java.util.LinkedHashMap;
import java.util.Map;

import android.app.Activity;
import android.content.Intent;
import android.content.IntentFilter;
import android.os.Bundle;
import android.os.Handler;
import android.os.Looper;
import android.util.Base64;
import android.view.View;
import android.view.Window;
import android.widget.FrameLayout;

import org.json.JSONObject;

/**
 * Renders one instance from `am start ... -a org.finestate.views.RENDER --ei seq N --es spec B64`
 * (B64: the base64 of the LiveSpec's UTF-8 JSON) and answers `am broadcast -a
 * org.finestate.views.REPORT -p org.finestate.views` with the state and boxes (android/README.md).
 */
public final class MainActivity extends Activity {
    static final String RENDER = "org.finestate.views.RENDER";
    static final String REPORT = "org.finestate.views.REPORT";
    private static final int FLAG_FULLSCREEN = 0x400;  // WindowManager.LayoutParams
    private static final int FLAG_KEEP_SCREEN_ON = 0x80;

    private ReportReceiver receiver;
    private Handler handler;
    private FrameLayout root;
    private Render render;
    private int seq = -1;
    private String error = "no instance rendered yet";

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        requestWindowFeature(Window.FEATURE_NO_TITLE);
        getWindow().addFlags(FLAG_FULLSCREEN | FLAG_KEEP_SCREEN_ON);
        handler = new Handler(Looper.getMainLooper());
        root = new FrameLayout(this);
        setContentView(root);
        root.setSystemUiVisibility(View.SYSTEM_UI_FLAG_FULLSCREEN
                | View.SYSTEM_UI_FLAG_HIDE_NAVIGATION | View.SYSTEM_UI_FLAG_IMMERSIVE_STICKY);
        receiver = new ReportReceiver(this, handler);
        registerReceiver(receiver, new IntentFilter(REPORT));
        render(getIntent());
    }

    @Override
    protected void onNewIntent(Intent intent) {
        super.onNewIntent(intent);
        setIntent(intent);
        render(intent);
    }

    @Override
    protected void onDestroy() {
        unregisterReceiver(receiver);
        if (render != null) render.stop();
        super.onDestroy();
    }

    private void render(Intent intent) {
        overridePendingTransition(0, 0);
        if (render != null) render.stop();
        render = null;
        root.removeAllViews();
        seq = intent.getIntExtra("seq", -1);
        if (!RENDER.equals(intent.getAction())) {
            error = "started without " + RENDER + ": nothing to render";
            return;
        }
        try {
            String b64 = intent.getStringExtra("spec");
            if (b64 == null) throw new IllegalArgumentException("the intent has no 'spec' extra");
            JSONObject spec = new JSONObject(new String(Base64.decode(b64, Base64.DEFAULT), "UTF-8"));
            render = new Render(this, root, handler, spec);
            render.start();
            error = null;
        } catch (Exception e) {
            render = null;
            root.removeAllViews();
            error = "bad spec: " + e;
        }
    }

    /** The reply to REPORT: always for the last render (`seq`), read from the views now. */
    String report() {
        Map<String, Object> out = new LinkedHashMap<String, Object>();
        out.put("seq", seq);
        String failure = render != null ? render.error() : error;
        boolean ready = failure != null || (render != null && render.ready());
        out.put("ready", ready);
        out.put("component", render != null ? render.component : null);
        Object state = null;
        if (failure == null && render != null) {
            try {
                state = render.state();
            } catch (RuntimeException e) {
                failure = "reading the state failed: " + e;
            }
        }
        Object boxes = null;
        Integer reach = null;
        if (failure == null && ready) {
            try {
                boxes = render.boxes();
                reach = render.reach();
            } catch (RuntimeException e) {
                failure = "measuring the boxes failed: " + e;
            }
        }
        out.put("state", state);
        out.put("boxes", boxes);
        out.put("reach", reach);
        out.put("error", failure);
        return Json.write(out);
    }
}
