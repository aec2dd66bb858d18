package org.finestate.views;

import java.util.Map;

import android.view.View;
import android.widget.Button;
import android.widget.LinearLayout;
import android.widget.TextView;

import org.json.JSONObject;

/** seek_bar: a media card (title, play button) with a native SeekBar over seconds / step. */
final class SeekBarControl extends SliderControl {
    SeekBarControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        grid = new Grid(0, p.opt("step"), p.opt("duration"));
        LinearLayout card = ui.card(title("title"), 0, SEEK_CARD_PAD);
        Ui.add(card, ui.label(p.optString("subtitle")), LinearLayout.LayoutParams.WRAP_CONTENT,
                LinearLayout.LayoutParams.WRAP_CONTENT);
        // "inline": the play button beside the bar; "stacked": the bar alone, the button below.
        boolean inline = "inline".equals(p.optString("layout"));
        LinearLayout row = ui.row();
        Button play = new Button(ui.context);
        play.setText("\u25B6");
        play.setSoundEffectsEnabled(false);
        int playPx = ui.px(p.optInt("play", 48));
        bar = seekBar(grid.last, grid.index(state), p.optInt("track"), p.optInt("hit", 48));
        bar.setSecondaryProgress((int) Math.round(p.optDouble("buffered") * grid.last));
        if (inline) Ui.add(row, play, playPx, playPx);
        Ui.add(row, bar, ui.px(p.optInt("track")) + bar.getPaddingLeft() + bar.getPaddingRight(),
                ui.px(p.optInt("hit", 48)));
        Ui.add(card, row, LinearLayout.LayoutParams.WRAP_CONTENT, LinearLayout.LayoutParams.WRAP_CONTENT);
        TextView readout = ui.label("");
        Ui.add(card, readout, LinearLayout.LayoutParams.WRAP_CONTENT, LinearLayout.LayoutParams.WRAP_CONTENT);
        if (!inline) Ui.add(card, play, playPx, playPx);
        follow(readout);
        return card;
    }

    @Override
    String readout(int k) {
        return clock(grid.value(k).intValue()) + " / " + clock(p.optInt("duration"));
    }

    private static String clock(int seconds) {
        return String.format(java.util.Locale.ROOT, "%d:%02d", seconds / 60, seconds % 60);
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        seekBarBoxes(bar, goal, probe, out);
    }

}
