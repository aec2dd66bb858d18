package org.finestate.views;

import java.util.ArrayList;
import java.util.List;

import android.graphics.Canvas;

/**
 * drag_reorder: rows of labels; a press on the named item's row drags it, and the release drops
 * it into the slot under the pointer (clamped to the first and last slot).
 */
public final class ReorderView extends TouchView {
    final ArrayList<String> order;
    final String item;
    final int row;
    final int gap;
    private int dragY = -1;

    ReorderView(Ui ui, List<String> order, String item, int rowPx, int gapPx) {
        super(ui);
        this.order = new ArrayList<String>(order);
        this.item = item;
        this.row = rowPx;
        this.gap = gapPx;
    }

    int height() {
        return order.size() * (row + gap) - gap;
    }

    int top(int slot) {
        return slot * (row + gap);
    }

    int slotAt(float y) {
        return Math.max(0, Math.min(order.size() - 1, (int) Math.floor(y / (row + gap))));
    }

    @Override
    boolean grab(float x, float y) {
        int at = order.indexOf(item);
        return y >= top(at) && y < top(at) + row;
    }

    @Override
    void drag(float x0, float y0, float x, float y, boolean done) {
        if (done) {
            int slot = slotAt(y);  // among all rows: taken before the item leaves its own
            order.remove(item);
            order.add(slot, item);
            dragY = -1;
        } else {
            dragY = Math.round(top(order.indexOf(item)) + y - y0);
        }
    }

    @Override
    protected void onDraw(Canvas canvas) {
        text(ui.text, 14);
        for (int i = 0; i < order.size(); i++) {
            boolean moving = order.get(i).equals(item) && dragY >= 0;
            int y = moving ? dragY : top(i);
            fill(order.get(i).equals(item) ? ui.border : ui.background);
            canvas.drawRect(0, y, getWidth(), y + row, paint);
            text(ui.text, 14);
            canvas.drawText("\u2261  " + order.get(i), 12 * ui.density, y + row / 2f + 5 * ui.density, paint);
        }
    }
}
