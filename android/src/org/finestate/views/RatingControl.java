package org.finestate.views;

import java.util.ArrayList;
import java.util.Map;

import android.view.View;
import android.widget.LinearLayout;
import android.widget.RatingBar;
import android.widget.TextView;

import org.json.JSONArray;
import org.json.JSONObject;

/**
 * rating: rows of native RatingBars, the target one the user sets (the others are indicators).
 * A tap sets the rating by the RatingBar's own rounding of the touch x to its step; the goal band
 * is probed with taps. Ten-star bars use the small style to fit a phone's width; each label
 * sits above its bar.
 */
final class RatingControl extends GridControl {
    private static final int RATING_BAR_STYLE = 0x0101007c;  // android.R.attr.ratingBarStyle
    private static final int RATING_BAR_STYLE_SMALL = 0x0101007d;
    private final ArrayList<View> rows = new ArrayList<View>();
    private RatingBar bar;

    RatingControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        int stars = p.optInt("stars");
        grid = new Grid(0, p.opt("step"), stars);
        LinearLayout card = ui.card(title("title"), 0);
        JSONArray labels = p.optJSONArray("labels");
        JSONArray values = p.optJSONArray("values");
        int target = p.optInt("target");
        // Each label above its bar: Android's stars (48 dp) are wider than the web's, and a
        // label beside five of them leaves no room on a phone.
        boolean stacked = true;
        for (int i = 0; i < labels.length(); i++) {
            LinearLayout row = stacked ? ui.column() : ui.row();
            TextView label = ui.label(labels.optString(i));
            Ui.add(row, label, stacked ? LinearLayout.LayoutParams.WRAP_CONTENT
                    : ui.px(p.optInt("label_width", 96)), LinearLayout.LayoutParams.WRAP_CONTENT);
            RatingBar stars_ = new RatingBar(ui.context, null,
                    stars > 5 ? RATING_BAR_STYLE_SMALL : RATING_BAR_STYLE);
            stars_.setNumStars(stars);
            stars_.setStepSize((float) p.optDouble("step"));
            Object value = i == target ? state : Controls.plain(values.opt(i));
            stars_.setRating(value == null ? 0f : ((Number) value).floatValue());
            stars_.setIsIndicator(i != target);
            stars_.setSoundEffectsEnabled(false);
            Ui.add(row, stars_, LinearLayout.LayoutParams.WRAP_CONTENT,
                    LinearLayout.LayoutParams.WRAP_CONTENT);
            Ui.add(card, row, LinearLayout.LayoutParams.WRAP_CONTENT,
                    LinearLayout.LayoutParams.WRAP_CONTENT);
            rows.add(row);
            if (i == target) bar = stars_;
        }
        return card;
    }

    @Override
    Object state() {
        return grid.value(Math.round(bar.getRating() / grid.step.floatValue()));
    }

    @Override
    boolean probed() {
        return true;
    }

    @Override
    void apply(Object state) {
        bar.setRating(((Number) state).floatValue());
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(rows.get(p.optInt("target"))));
        int[] core = Ui.box(bar);
        out.put("core", core);
        out.put("goal", Probe.tapBand(probe, core, goal, true));
        // The stars drawn filled: from the track's start to the rating (one step when it is 0).
        int left = bar.getPaddingLeft();
        int track = bar.getWidth() - left - bar.getPaddingRight();
        int k = Math.max(1, grid.index(state()));
        int zoneLeft = left + (int) Math.floor(track * (k - 1) / (double) grid.last);
        int zoneRight = left + (int) Math.ceil(track * k / (double) grid.last);
        out.put("now", Ui.box(bar, zoneLeft, bar.getPaddingTop(), zoneRight,
                bar.getHeight() - bar.getPaddingBottom()));
    }
}
