package org.finestate.views;

import android.content.Context;
import android.view.View;
import android.view.ViewGroup;
import android.widget.LinearLayout;
import android.widget.TextView;

/** The theme's colours, dp to pixels, the card every control sits in, and boxes of views. */
final class Ui {
    // The web themes' colours (widgets/web/stage.css): background, surface, border, text,
    // muted text, accent, text on accent. Android draws its own widgets; only colours carry over.
    private static final String[] THEMES = {"classic-light", "material-light", "bootstrap-light",
        "fluent-dark"};
    private static final int[][] COLOURS = {
        {0xfff4f5f7, 0xffffffff, 0xffd5dae1, 0xff1f2933, 0xff52606d, 0xff2f80ed, 0xffffffff},
        {0xfffafafa, 0xffffffff, 0xffe0e0e0, 0xff202124, 0xff5f6368, 0xff1a73e8, 0xffffffff},
        {0xffe9ecef, 0xffffffff, 0xffced4da, 0xff212529, 0xff6c757d, 0xff0d6efd, 0xffffffff},
        {0xff202020, 0xff2b2b2b, 0xff454545, 0xffffffff, 0xffc5c5c5, 0xff60cdff, 0xff000000},
    };
    static final int TEXT_SP = 14;
    private static final int COMPLEX_UNIT_SP = 2;  // TypedValue.COMPLEX_UNIT_SP

    final Context context;
    final float density;
    final int background;
    final int surface;
    final int border;
    final int text;
    final int muted;
    final int accent;
    final int onAccent;

    Ui(Context context, String theme) {
        this.context = context;
        this.density = context.getResources().getDisplayMetrics().density;
        int t = 0;
        for (int i = 0; i < THEMES.length; i++) {
            if (THEMES[i].equals(theme)) t = i;
        }
        int[] c = COLOURS[t];
        background = c[0];
        surface = c[1];
        border = c[2];
        text = c[3];
        muted = c[4];
        accent = c[5];
        onAccent = c[6];
    }

    /** CSS px of the spec, taken as dp, in device pixels. */
    int px(double dp) {
        return (int) Math.round(dp * density);
    }

    TextView label(String words) {
        TextView view = new TextView(context);
        view.setText(words);
        view.setTextSize(COMPLEX_UNIT_SP, TEXT_SP);
        view.setTextColor(text);
        return view;
    }

    /** A centred glyph that acts on a tap (a month arrow, a "more" row), without a click sound. */
    TextView tapLabel(String glyph, View.OnClickListener click) {
        TextView view = label(glyph);
        view.setGravity(CENTER);
        view.setSoundEffectsEnabled(false);
        view.setOnClickListener(click);
        return view;
    }

    LinearLayout column() {
        LinearLayout layout = new LinearLayout(context);
        layout.setOrientation(LinearLayout.VERTICAL);
        return layout;
    }

    LinearLayout row() {
        LinearLayout layout = new LinearLayout(context);
        layout.setOrientation(LinearLayout.HORIZONTAL);
        layout.setGravity(CENTER_VERTICAL);
        return layout;
    }

    static final int CENTER_VERTICAL = 16;  // Gravity.CENTER_VERTICAL
    static final int CENTER = 17;  // Gravity.CENTER

    /** The card: a column on the theme's surface, its title on top when there is one; `widthDp`
     * (0: as wide as its content) is the whole card's, padding included, as on the web stage. */
    LinearLayout card(String title, int widthDp) {
        return card(title, widthDp, 12);
    }

    LinearLayout card(String title, int widthDp, int padDp) {
        LinearLayout card = column();
        card.setBackgroundColor(surface);
        int pad = px(padDp);
        card.setPadding(pad, pad, pad, pad);
        if (title != null && title.length() > 0) {
            TextView heading = label(title);
            heading.setTextSize(COMPLEX_UNIT_SP, 16);
            add(card, heading, ViewGroup.LayoutParams.WRAP_CONTENT, ViewGroup.LayoutParams.WRAP_CONTENT);
        }
        int width = widthDp > 0 ? px(widthDp) : ViewGroup.LayoutParams.WRAP_CONTENT;
        card.setLayoutParams(new ViewGroup.LayoutParams(width, ViewGroup.LayoutParams.WRAP_CONTENT));
        return card;
    }

    /** Adds `child` to a LinearLayout with the given size in device pixels (or MATCH/WRAP). */
    static void add(LinearLayout parent, View child, int width, int height) {
        parent.addView(child, new LinearLayout.LayoutParams(width, height));
    }

    static void addWeighted(LinearLayout parent, View child, int height) {
        parent.addView(child, new LinearLayout.LayoutParams(0, height, 1f));
    }

    /** A view's box in screen pixels, inclusive edges. */
    static int[] box(View view) {
        int[] at = new int[2];
        view.getLocationOnScreen(at);
        return new int[] {at[0], at[1], at[0] + view.getWidth() - 1, at[1] + view.getHeight() - 1};
    }

    /** A rectangle given in a view's own coordinates (left, top, right, bottom exclusive), on screen. */
    static int[] box(View view, int left, int top, int right, int bottom) {
        int[] at = new int[2];
        view.getLocationOnScreen(at);
        return new int[] {at[0] + left, at[1] + top, at[0] + right - 1, at[1] + bottom - 1};
    }

    static int[] union(int[] a, int[] b) {
        return new int[] {Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]),
            Math.max(a[3], b[3])};
    }

    static int centre(int lo, int hi) {
        return (lo + hi) / 2;
    }
}
