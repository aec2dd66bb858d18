package org.finestate.views;

import java.util.Calendar;
import java.util.GregorianCalendar;
import java.util.Locale;
import java.util.Map;

import android.view.View;
import android.widget.LinearLayout;
import android.widget.TextView;

import org.json.JSONObject;

/**
 * date_picker: the selected date's field over a calendar of one month: a header with month arrows
 * ("\u2039", "\u203a") around the month's name, and a six-week grid of day cells (TextViews in
 * LinearLayout rows); a tap on a day of the shown month selects it, an arrow turns the month and
 * never changes the state. It opens on the selected day's month. Android's DatePicker keeps its
 * day cells private (no bounds to measure), so the calendar is composed here.
 *
 * A goal in another month (episodes of several gestures) is reached through the arrows: its goal
 * box is the arrow toward it, `reach` a tap per month to turn and one for the day, and `now` the
 * field while the selected day's month is turned away.
 */
final class DatePickerControl extends Control {
    private static final String[] MONTHS = {"January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December"};
    private static final String[] DAYS = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday",
        "Friday", "Saturday"};
    private final TextView[] slots = new TextView[42];
    private TextView field;
    private TextView title;
    private TextView prev;
    private TextView next;
    private int year;  // the selected date
    private int month;  // 1..12
    private int day;
    private int shownYear;  // the month the grid shows
    private int shownMonth;
    private int offset;  // slots before the shown month's first day
    private int days;  // in the shown month

    DatePickerControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        String iso = (String) state;
        year = Integer.parseInt(iso.substring(0, 4));
        month = Integer.parseInt(iso.substring(5, 7));
        day = Integer.parseInt(iso.substring(8, 10));
        shownYear = year;
        shownMonth = month;
        int cell = ui.px(p.optInt("cell", 40));
        int nav = ui.px(p.optInt("nav", 40));
        // On a phone seven finger-sized cells leave the sampled `pad` at the sides (sample()).
        LinearLayout card = ui.card(title("label"), 0, p.optInt("pad", 12));
        field = ui.label("");
        field.setGravity(Ui.CENTER_VERTICAL);
        Ui.add(card, field, 7 * cell, nav);
        LinearLayout header = ui.row();
        prev = arrow("\u2039", -1);
        title = ui.label("");
        title.setGravity(Ui.CENTER);
        next = arrow("\u203a", 1);
        Ui.add(header, prev, nav, nav);
        Ui.addWeighted(header, title, nav);
        Ui.add(header, next, nav, nav);
        Ui.add(card, header, 7 * cell, nav);
        int weekStart = p.optInt("week_start");  // 0: Sunday first, 1: Monday first
        LinearLayout names = ui.row();
        for (int i = 0; i < 7; i++) {
            TextView name = ui.label(DAYS[(i + weekStart) % 7].substring(0, 1));
            name.setGravity(Ui.CENTER);
            name.setTextColor(ui.muted);
            Ui.add(names, name, cell, cell / 2);
        }
        Ui.add(card, names, LinearLayout.LayoutParams.WRAP_CONTENT, LinearLayout.LayoutParams.WRAP_CONTENT);
        LinearLayout week = null;
        for (int slot = 0; slot < 42; slot++) {
            if (slot % 7 == 0) {
                week = ui.row();
                Ui.add(card, week, LinearLayout.LayoutParams.WRAP_CONTENT, LinearLayout.LayoutParams.WRAP_CONTENT);
            }
            final int at = slot;
            slots[slot] = ui.tapLabel("", new View.OnClickListener() {
                @Override
                public void onClick(View v) {
                    int d = at - offset + 1;
                    if (d < 1 || d > days) return;  // a blank cell outside the month
                    year = shownYear;
                    month = shownMonth;
                    day = d;
                    show();
                }
            });
            Ui.add(week, slots[slot], cell, cell);
        }
        show();
        return card;
    }

    private TextView arrow(String glyph, final int delta) {
        return ui.tapLabel(glyph, new View.OnClickListener() {
            @Override
            public void onClick(View v) {
                int index = shownYear * 12 + shownMonth - 1 + delta;
                shownYear = index / 12;
                shownMonth = index % 12 + 1;
                show();
            }
        });
    }

    /** Paints the shown month and the field. */
    private void show() {
        GregorianCalendar first = new GregorianCalendar(shownYear, shownMonth - 1, 1);
        offset = (first.get(Calendar.DAY_OF_WEEK) - 1 - p.optInt("week_start") + 7) % 7;
        days = first.getActualMaximum(Calendar.DAY_OF_MONTH);
        boolean selectedShown = shownYear == year && shownMonth == month;
        for (int slot = 0; slot < 42; slot++) {
            int d = slot - offset + 1;
            boolean in = d >= 1 && d <= days;
            boolean selected = in && selectedShown && d == day;
            slots[slot].setText(in ? Integer.toString(d) : "");
            slots[slot].setBackgroundColor(selected ? ui.accent : ui.surface);
            slots[slot].setTextColor(selected ? ui.onAccent : ui.text);
        }
        title.setText(MONTHS[shownMonth - 1] + " " + shownYear);
        field.setText(format());
    }

    /** The selected date as the field writes it (params "format", as the web's field). */
    private String format() {
        String weekday = DAYS[new GregorianCalendar(year, month - 1, day).get(Calendar.DAY_OF_WEEK) - 1];
        String f = p.optString("format");
        if ("dmy".equals(f)) return String.format(Locale.ROOT, "%02d/%02d/%d", day, month, year);
        if ("us".equals(f)) return MONTHS[month - 1].substring(0, 3) + " " + day + ", " + year;
        if ("long".equals(f)) {
            return weekday.substring(0, 3) + ", " + day + " " + MONTHS[month - 1] + " " + year;
        }
        return (String) state();
    }

    @Override
    Object state() {
        return String.format(Locale.ROOT, "%04d-%02d-%02d", year, month, day);
    }

    /** Months from the shown one to that of `iso`: > 0 ahead, < 0 behind. */
    private int monthsTo(Object iso) {
        String s = (String) iso;
        return (Integer.parseInt(s.substring(0, 4)) - shownYear) * 12
                + Integer.parseInt(s.substring(5, 7)) - shownMonth;
    }

    private int[] cell(Object iso) {
        return Ui.box(slots[offset + Integer.parseInt(((String) iso).substring(8, 10)) - 1]);
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        // Every day cell of the shown month: it starts and ends mid-week.
        int[] core = Ui.box(slots[offset]);
        for (int d = 2; d <= days; d++) core = Ui.union(core, Ui.box(slots[offset + d - 1]));
        out.put("core", core);
        out.put("goal", monthsTo(goal) == 0 ? cell(goal) : Ui.box(monthsTo(goal) > 0 ? next : prev));
        out.put("now", monthsTo(state()) == 0 ? cell(state()) : Ui.box(field));
    }

    @Override
    Integer reach(Object goal) {
        return goal.equals(state()) ? 0 : Math.abs(monthsTo(goal)) + 1;
    }
}
