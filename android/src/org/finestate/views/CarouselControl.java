package org.finestate.views;

import java.util.ArrayList;
import java.util.Map;

import android.view.View;
import android.widget.FrameLayout;
import android.widget.LinearLayout;
import android.widget.TextView;

import org.json.JSONArray;
import org.json.JSONObject;

/** carousel: the shown slide over a row of dots, each in its own tap target; a tap on a dot shows
 * that slide. The state is the shown slide's index. */
final class CarouselControl extends Control {
    private final ArrayList<FrameLayout> dots = new ArrayList<FrameLayout>();
    private final ArrayList<View> marks = new ArrayList<View>();
    private JSONArray slides;
    private TextView slide;
    private int shown;

    CarouselControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        LinearLayout card = ui.card(title("title"), p.optInt("width"));
        slides = p.optJSONArray("slides");
        shown = ((Number) state).intValue();
        slide = ui.label("");
        slide.setGravity(Ui.CENTER);
        Ui.add(card, slide, LinearLayout.LayoutParams.MATCH_PARENT, ui.px(p.optInt("height", 160)));
        LinearLayout row = ui.row();
        row.setGravity(Ui.CENTER);
        int target = ui.px(Math.max(p.optInt("hit", 0), p.optInt("dot", 10) + p.optInt("gap", 0)));
        int dot = ui.px(p.optInt("dot", 10));
        for (int i = 0; i < slides.length(); i++) {
            final int index = i;
            FrameLayout square = new FrameLayout(ui.context);
            View mark = new View(ui.context);
            FrameLayout.LayoutParams lp = new FrameLayout.LayoutParams(dot, dot);
            lp.leftMargin = (target - dot) / 2;
            lp.topMargin = (target - dot) / 2;
            square.addView(mark, lp);
            square.setSoundEffectsEnabled(false);
            square.setOnClickListener(new View.OnClickListener() {
                @Override
                public void onClick(View v) {
                    shown = index;
                    paint();
                }
            });
            Ui.add(row, square, target, target);
            dots.add(square);
            marks.add(mark);
        }
        Ui.add(card, row, LinearLayout.LayoutParams.MATCH_PARENT, LinearLayout.LayoutParams.WRAP_CONTENT);
        paint();
        return card;
    }

    private void paint() {
        JSONObject s = slides.optJSONObject(shown);
        slide.setText(s.optString("title") + "\n" + s.optString("caption"));
        // The slide's tint: a hue from the sampled tint, light enough for dark text.
        int tint = s.optInt("tint");
        slide.setBackgroundColor(0xff000000 | ((200 + tint) << 16) | ((210 + tint / 2) << 8) | 235);
        slide.setTextColor(0xff1f2933);
        for (int i = 0; i < marks.size(); i++) {
            marks.get(i).setBackgroundColor(i == shown ? ui.accent : ui.border);
        }
    }

    @Override
    Object state() {
        return shown;
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        out.put("core", Ui.union(Ui.box(dots.get(0)), Ui.box(dots.get(dots.size() - 1))));
        out.put("goal", Ui.box(dots.get(((Number) goal).intValue())));
        out.put("now", Ui.box(dots.get(shown)));
    }
}
