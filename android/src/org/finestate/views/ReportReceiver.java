package org.finestate.views;

import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.os.Handler;

/**
 * Answers `am broadcast -a org.finestate.views.REPORT`: result -1, data the report's JSON. The
 * answer waits REPLY_DELAY_MS on the main thread first, so that what a tap posted (a ListView
 * performs its item click 64 ms after the touch ends) has run before the state is read.
 */
public final class ReportReceiver extends BroadcastReceiver {
    private static final int RESULT_OK = -1;
    private static final long REPLY_DELAY_MS = 100;
    private final MainActivity activity;
    private final Handler handler;

    public ReportReceiver(MainActivity activity, Handler handler) {
        this.activity = activity;
        this.handler = handler;
    }

    @Override
    public void onReceive(Context context, Intent intent) {
        final PendingResult pending = goAsync();
        handler.postDelayed(new Runnable() {
            @Override
            public void run() {
                pending.setResultCode(RESULT_OK);
                pending.setResultData(activity.report());
                pending.finish();
            }
        }, REPLY_DELAY_MS);
    }
}
