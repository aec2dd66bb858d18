package org.finestate.views;

import java.util.List;
import java.util.Map;

import android.view.View;
import android.view.ViewGroup;
import android.widget.AbsListView;
import android.widget.BaseAdapter;
import android.widget.LinearLayout;
import android.widget.ListView;
import android.widget.TextView;

import org.json.JSONObject;

/**
 * list_box: the field's label over a native single-choice ListView, every row visible.
 *
 * With `page` (a far goal, episodes of several gestures) the whole pool is shown a page at a time
 * instead: the field showing the selection, then `page` OptionRows between a "more above" and a
 * "more below" row; a tap on either turns one page (nothing past the first or last) and never
 * changes the state. It opens on the selected option's page. While the goal's page is turned
 * away its goal box is the arrow row toward it, and while the selection's is, `now` is the field.
 */
final class ListBoxControl extends Control {
    private List<String> options;
    private ListView list;
    private int perPage;  // 0: the ListView, every row visible
    private int shownPage;
    private String selected;
    private TextView field;
    private LinearLayout window;
    private OptionRow[] slots;
    private TextView up;
    private TextView down;

    ListBoxControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    View build(Object state) {
        LinearLayout card = ui.card(title("label"), p.optInt("width"));
        options = Json.strings(p.optJSONArray("options"));
        final int row = ui.px(p.optInt("row_height", 48));
        perPage = p.isNull("page") ? 0 : p.optInt("page");
        if (perPage > 0) {
            buildPaged(card, (String) state, row);
            return card;
        }
        list = new ListView(ui.context);
        list.setDividerHeight(0);
        list.setVerticalScrollBarEnabled(false);
        list.setChoiceMode(AbsListView.CHOICE_MODE_SINGLE);
        list.setAdapter(new BaseAdapter() {
            @Override
            public int getCount() {
                return options.size();
            }

            @Override
            public Object getItem(int position) {
                return options.get(position);
            }

            @Override
            public long getItemId(int position) {
                return position;
            }

            @Override
            public View getView(int position, View convertView, ViewGroup parent) {
                return new OptionRow(ui, options.get(position), row);
            }
        });
        list.setItemChecked(options.indexOf(state), true);
        Ui.add(card, list, LinearLayout.LayoutParams.MATCH_PARENT, row * options.size());
        return card;
    }

    private void buildPaged(LinearLayout card, String state, int row) {
        selected = state;
        shownPage = pageOf(state);
        field = ui.label("");
        field.setGravity(Ui.CENTER_VERTICAL);
        field.setPadding(ui.px(12), 0, ui.px(12), 0);
        Ui.add(card, field, LinearLayout.LayoutParams.MATCH_PARENT, row);
        up = arrow("\u25b2", -1);
        Ui.add(card, up, LinearLayout.LayoutParams.MATCH_PARENT, row);
        window = ui.column();
        slots = new OptionRow[perPage];
        for (int i = 0; i < perPage; i++) {
            final int slot = i;
            slots[i] = new OptionRow(ui, "", row);
            slots[i].setSoundEffectsEnabled(false);
            slots[i].setOnClickListener(new View.OnClickListener() {
                @Override
                public void onClick(View v) {
                    int index = shownPage * perPage + slot;
                    if (index >= options.size()) return;  // an empty slot of the last page
                    selected = options.get(index);
                    show();
                }
            });
            Ui.add(window, slots[i], LinearLayout.LayoutParams.MATCH_PARENT, row);
        }
        Ui.add(card, window, LinearLayout.LayoutParams.MATCH_PARENT, perPage * row);
        down = arrow("\u25bc", 1);
        Ui.add(card, down, LinearLayout.LayoutParams.MATCH_PARENT, row);
        show();
    }

    private TextView arrow(String glyph, final int delta) {
        return ui.tapLabel(glyph, new View.OnClickListener() {
            @Override
            public void onClick(View v) {
                int page = shownPage + delta;
                if (page >= 0 && page < pages()) {
                    shownPage = page;
                    show();
                }
            }
        });
    }

    private int pages() {
        return (options.size() + perPage - 1) / perPage;
    }

    private int pageOf(Object option) {
        return options.indexOf(option) / perPage;
    }

    /** Paints the shown page, the selection and the arrows (muted at either end). */
    private void show() {
        for (int i = 0; i < perPage; i++) {
            int index = shownPage * perPage + i;
            boolean filled = index < options.size();
            slots[i].setText(filled ? options.get(index) : "");
            slots[i].setChecked(filled && options.get(index).equals(selected));
            slots[i].setVisibility(filled ? View.VISIBLE : View.INVISIBLE);
        }
        up.setTextColor(shownPage == 0 ? ui.muted : ui.text);
        down.setTextColor(shownPage == pages() - 1 ? ui.muted : ui.text);
        field.setText(selected);
    }

    @Override
    Object state() {
        if (perPage > 0) return selected;
        int position = list.getCheckedItemPosition();
        return position < 0 ? null : options.get(position);
    }

    private int[] rowBox(Object option) {
        return Ui.box(list.getChildAt(options.indexOf(option) - list.getFirstVisiblePosition()));
    }

    @Override
    void measure(Object goal, Control probe, Map<String, int[]> out) {
        out.put("loc", Ui.box(card));
        if (perPage > 0) {
            out.put("core", Ui.box(window));
            int turn = pageOf(goal) - shownPage;
            View aim = turn == 0 ? slots[options.indexOf(goal) % perPage] : turn > 0 ? down : up;
            out.put("goal", Ui.box(aim));
            out.put("now", pageOf(selected) == shownPage
                    ? Ui.box(slots[options.indexOf(selected) % perPage]) : Ui.box(field));
            return;
        }
        out.put("core", Ui.box(list));
        out.put("goal", rowBox(goal));
        Object shown = state();
        out.put("now", shown == null ? null : rowBox(shown));
    }

    /** A tap per page to turn, then the option's. */
    @Override
    Integer reach(Object goal) {
        if (goal.equals(state())) return 0;
        return perPage > 0 ? Math.abs(pageOf(goal) - shownPage) + 1 : 1;
    }
}
