package org.finestate.views;

import java.util.Map;

import android.view.View;
import android.widget.LinearLayout;
import android.widget.SeekBar;
import android.widget.TextView;

import org.json.JSONObject;

/** slider: a native SeekBar over the grid indices 0..last; its travel is the sampled track. */
class SliderControl extends GridControl {
    // The SeekBar pads its track by the thumb's half width itself: the card adds little, so
    // that a phone's sampled track (the web's card chrome and thumb beside it) fits.
    static final int SEEK_CARD_PAD = 4;
    SeekBar bar;

    SliderControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        grid = new Grid(p.opt("min"), p.opt("step"), p.opt("max"));
        LinearLayout card = ui.card(title("label"), 0, SEEK_CARD_PAD);
        bar = seekBar(grid.last, grid.index(state), p.optInt("track"), p.optInt("hit", 48));
        Ui.add(card, bar, LinearLayout.LayoutParams.WRAP_CONTENT, ui.px(p.optInt("hit", 48)));
        bar.getLayoutParams().width = ui.px(p.optInt("track")) + bar.getPaddingLeft()
                + bar.getPaddingRight();
        final TextView readout = ui.label("");
        Ui.add(card, readout, LinearLayout.LayoutParams.WRAP_CONTENT, LinearLayout.LayoutParams.WRAP_CONTENT);
        follow(readout);
        return card;
    }

    /** Shows the value beside the bar, following it (the SeekBar's listener: touch input). */
    void follow(final TextView readout) {
        readout.setText(readout(bar.getProgress()));
        bar.setOnSeekBarChangeListener(new SeekBar.OnSeekBarChangeListener() {
            @Override
            public void onProgressChanged(SeekBar seekBar, int progress, boolean fromUser) {
                readout.setText(readout(progress));
            }

            @Override
            public void onStartTrackingTouch(SeekBar seekBar) {
            }

            @Override
            public void onStopTrackingTouch(SeekBar seekBar) {
            }
        });
    }

    String readout(int k) {
        return grid.value(k).toPlainString() + p.optString("unit");
    }

    /** A SeekBar whose progress is the grid index; the track (between the paddings) `trackDp`. */
    SeekBar seekBar(int last, int k, int trackDp, int hitDp) {
        SeekBar seek = new SeekBar(ui.context);
        seek.setMax(last);
        seek.setProgress(k);
        seek.setMinimumHeight(ui.px(hitDp));
        seek.setSoundEffectsEnabled(false);
        seek.setHapticFeedbackEnabled(false);
        return seek;
    }

    @Override
    Object state() {
        return grid.value(bar.getProgress());
    }

    @Override
    boolean probed() {
        return true;
    }

    @Override
    void apply(Object state) {
        bar.setProgress(grid.index(state));
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        seekBarBoxes(bar, goal, probe, out);
    }

    /** core (the whole SeekBar takes touches), now (the thumb as drawn), goal (probed). */
    static void seekBarBoxes(SeekBar bar, Object goal, Control probe, Map<String, int[]> out) {
        int[] core = Ui.box(bar);
        android.graphics.Rect thumb = bar.getThumb().getBounds();
        // AbsSeekBar draws the thumb translated by (paddingLeft - thumbOffset, paddingTop).
        int dx = bar.getPaddingLeft() - bar.getThumbOffset();
        int dy = bar.getPaddingTop();
        int[] now = Ui.box(bar, thumb.left + dx, thumb.top + dy, thumb.right + dx, thumb.bottom + dy);
        out.put("core", core);
        out.put("goal", Probe.band(probe, core, now, goal, true));
        out.put("now", now);
    }

}
