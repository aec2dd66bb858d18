package org.finestate.views;

import java.util.ArrayList;
import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.Map;

import android.view.View;
import android.widget.LinearLayout;
import android.widget.TextView;

import org.json.JSONObject;

/**
 * date_picker: the month of the state as a calendar grid of day cells (TextViews in
 * LinearLayout rows) under a month header; a tap on a day selects it. Android's DatePicker keeps
 * its day cells private (no bounds to measure), so the calendar is composed here.
 */
final class DatePickerControl extends Control {
    private static final String[] MONTHS = {"January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December"};
    private static final String[] DAYS = {"S", "M", "T", "W", "T", "F", "S"};
    private final ArrayList<TextView> cells = new ArrayList<TextView>();  // day d at d - 1
    private int year;
    private int month;  // 1..12
    private int day;

    DatePickerControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        String iso = (String) state;
        year = Integer.parseInt(iso.substring(0, 4));
        month = Integer.parseInt(iso.substring(5, 7));
        day = Integer.parseInt(iso.substring(8, 10));
        int cell = ui.px(p.optInt("cell", 40));
        // On a phone seven finger-sized cells leave the sampled `pad` at the sides (sample()).
        LinearLayout card = ui.card(title("label"), 0, p.optInt("pad", 12));
        TextView header = ui.label(MONTHS[month - 1] + " " + year);
        header.setGravity(Ui.CENTER);
        Ui.add(card, header, 7 * cell, ui.px(p.optInt("nav", 40)));
        int weekStart = p.optInt("week_start");  // 0: Sunday first, 1: Monday first
        LinearLayout names = ui.row();
        for (int i = 0; i < 7; i++) {
            TextView name = ui.label(DAYS[(i + weekStart) % 7]);
            name.setGravity(Ui.CENTER);
            name.setTextColor(ui.muted);
            Ui.add(names, name, cell, cell / 2);
        }
        Ui.add(card, names, LinearLayout.LayoutParams.WRAP_CONTENT, LinearLayout.LayoutParams.WRAP_CONTENT);
        GregorianCalendar first = new GregorianCalendar(year, month - 1, 1);
        int offset = (first.get(Calendar.DAY_OF_WEEK) - 1 - weekStart + 7) % 7;
        int days = first.getActualMaximum(Calendar.DAY_OF_MONTH);
        LinearLayout week = null;
        for (int slot = 0; slot < 42; slot++) {
            if (slot % 7 == 0) {
                week = ui.row();
                Ui.add(card, week, LinearLayout.LayoutParams.WRAP_CONTENT, LinearLayout.LayoutParams.WRAP_CONTENT);
            }
            final int d = slot - offset + 1;
            TextView view = ui.label(d >= 1 && d <= days ? Integer.toString(d) : "");
            view.setGravity(Ui.CENTER);
            Ui.add(week, view, cell, cell);
            if (d >= 1 && d <= days) {
                view.setSoundEffectsEnabled(false);
                view.setOnClickListener(new View.OnClickListener() {
                    @Override
                    public void onClick(View v) {
                        day = d;
                        paint();
                    }
                });
                cells.add(view);
            }
        }
        paint();
        return card;
    }

    private void paint() {
        for (int i = 0; i < cells.size(); i++) {
            cells.get(i).setBackgroundColor(i + 1 == day ? ui.accent : ui.surface);
            cells.get(i).setTextColor(i + 1 == day ? ui.onAccent : ui.text);
        }
    }

    @Override
    Object state() {
        return String.format(java.util.Locale.ROOT, "%04d-%02d-%02d", year, month, day);
    }

    private int[] cell(Object iso) {
        return Ui.box(cells.get(Integer.parseInt(((String) iso).substring(8, 10)) - 1));
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        int[] core = Ui.box(cells.get(0));  // every day cell: the month starts and ends mid-week
        for (TextView c : cells) core = Ui.union(core, Ui.box(c));
        out.put("core", core);
        out.put("goal", cell(goal));
        out.put("now", cell(state()));
    }
}
