package org.finestate.views;

import java.util.ArrayList;
import java.util.Map;

import android.view.View;
import android.widget.FrameLayout;
import android.widget.LinearLayout;

import org.json.JSONArray;
import org.json.JSONObject;

/** color_picker: a grid of swatch Views; a tap picks one (a ring marks it). State: its hex. */
final class ColorPickerControl extends Control {
    private final ArrayList<String> hexes = new ArrayList<String>();
    private final ArrayList<FrameLayout> swatches = new ArrayList<FrameLayout>();
    private String picked;
    private LinearLayout grid;

    ColorPickerControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        LinearLayout card = ui.card(title("label"), 0);
        JSONArray all = p.optJSONArray("swatches");
        int columns = p.optInt("columns");
        int size = ui.px(p.optInt("swatch", 48));
        int gap = ui.px(p.optInt("gap", 4));
        picked = (String) state;
        grid = ui.column();
        LinearLayout row = null;
        for (int i = 0; i < all.length(); i++) {
            if (i % columns == 0) {
                row = ui.row();
                LinearLayout.LayoutParams lp = new LinearLayout.LayoutParams(
                        LinearLayout.LayoutParams.WRAP_CONTENT, LinearLayout.LayoutParams.WRAP_CONTENT);
                lp.topMargin = i == 0 ? 0 : gap;
                grid.addView(row, lp);
            }
            final String hex = all.optJSONArray(i).optString(1);
            FrameLayout swatch = new FrameLayout(ui.context);
            View fill = new View(ui.context);
            fill.setBackgroundColor(0xff000000 | Integer.parseInt(hex.substring(1), 16));
            FrameLayout.LayoutParams inner = new FrameLayout.LayoutParams(
                    FrameLayout.LayoutParams.MATCH_PARENT, FrameLayout.LayoutParams.MATCH_PARENT);
            int ring = ui.px(3);
            inner.leftMargin = ring;
            inner.topMargin = ring;
            inner.rightMargin = ring;
            inner.bottomMargin = ring;
            swatch.addView(fill, inner);
            swatch.setSoundEffectsEnabled(false);
            swatch.setOnClickListener(new View.OnClickListener() {
                @Override
                public void onClick(View v) {
                    picked = hex;
                    paint();
                }
            });
            LinearLayout.LayoutParams lp = new LinearLayout.LayoutParams(size, size);
            lp.leftMargin = i % columns == 0 ? 0 : gap;
            row.addView(swatch, lp);
            hexes.add(hex);
            swatches.add(swatch);
        }
        paint();
        Ui.add(card, grid, LinearLayout.LayoutParams.WRAP_CONTENT, LinearLayout.LayoutParams.WRAP_CONTENT);
        return card;
    }

    private void paint() {
        for (int i = 0; i < swatches.size(); i++) {
            swatches.get(i).setBackgroundColor(hexes.get(i).equals(picked) ? ui.text : ui.surface);
        }
    }

    @Override
    Object state() {
        return picked;
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        out.put("core", Ui.box(grid));
        out.put("goal", Ui.box(swatches.get(hexes.indexOf(goal))));
        out.put("now", picked == null || !hexes.contains(picked) ? null
                : Ui.box(swatches.get(hexes.indexOf(picked))));
    }
}
