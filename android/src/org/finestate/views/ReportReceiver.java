package org.finestate.views;

import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;

/** Answers `am broadcast -a org.finestate.views.REPORT`: result -1, data the report's JSON. */
public final class ReportReceiver extends BroadcastReceiver {
    private static final int RESULT_OK = -1;
    private final MainActivity activity;

    public ReportReceiver(MainActivity activity) {
        this.activity = activity;
    }

    @Override
    public void onReceive(Context context, Intent intent) {
        setResultCode(RESULT_OK);
        setResultData(activity.report());
    }
}
