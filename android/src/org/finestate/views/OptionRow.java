package org.finestate.views;

import android.widget.Checkable;
import android.widget.TextView;

/** A ListView row that shows the ListView's single choice (the list sets it, as Checkable). */
public final class OptionRow extends TextView implements Checkable {
    private final Ui ui;
    private boolean checked;

    public OptionRow(Ui ui, String text, int height) {
        super(ui.context);
        this.ui = ui;
        setText(text);
        setTextSize(2, Ui.TEXT_SP);
        setGravity(Ui.CENTER_VERTICAL);
        setPadding(ui.px(12), 0, ui.px(12), 0);
        setMinimumHeight(height);
        show();
    }

    @Override
    public boolean isChecked() {
        return checked;
    }

    @Override
    public void setChecked(boolean value) {
        checked = value;
        show();
    }

    @Override
    public void toggle() {
        setChecked(!checked);
    }

    private void show() {
        setBackgroundColor(checked ? ui.accent : ui.surface);
        setTextColor(checked ? ui.onAccent : ui.text);
    }
}
