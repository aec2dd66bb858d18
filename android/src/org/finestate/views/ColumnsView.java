package org.finestate.views;

import android.graphics.Canvas;

/** table_column: a table whose target column's width is dragged by the handle on its right
 * border in the header row. */
public final class ColumnsView extends SizeDragView {
    final int target;
    final int[] others;  // the other columns' widths in dp, by column (the target's ignored)
    final String[] headers;
    final String[][] cells;
    final int header;
    final int row;
    final int hit;

    ColumnsView(Ui ui, int target, int width, int min, int max, int step, int[] others,
                String[] headers, String[][] cells, int headerPx, int rowPx, int hitPx) {
        super(ui, width, min, max, step, true, 1);
        this.target = target;
        this.others = others;
        this.headers = headers;
        this.cells = cells;
        this.header = headerPx;
        this.row = rowPx;
        this.hit = hitPx;
    }

    int left(int column) {
        int x = 0;
        for (int i = 0; i < column; i++) x += ui.px(i == target ? size : others[i]);
        return x;
    }

    @Override
    int[] handle() {
        int e = left(target + 1);
        return new int[] {e - hit / 2, 0, e + hit / 2 + 1, header};
    }

    @Override
    protected void onDraw(Canvas canvas) {
        canvas.drawColor(ui.surface);
        fill(ui.background);
        canvas.drawRect(0, 0, getWidth(), header, paint);
        for (int c = 0; c < headers.length; c++) {
            int x = left(c);
            text(ui.text, 13);
            canvas.drawText(headers[c], x + 6 * ui.density, header / 2f + 5 * ui.density, paint);
            for (int r = 0; r < cells.length; r++) {
                text(ui.muted, 12);
                canvas.drawText(cells[r][c], x + 6 * ui.density, header + r * row + row / 2f + 4 * ui.density, paint);
            }
            stroke(c == target ? ui.accent : ui.border, (c == target ? 2 : 1) * ui.density);
            int e = left(c + 1);
            canvas.drawLine(e, 0, e, c == target ? header : getHeight(), paint);
        }
    }
}
