package org.finestate.views;

import org.json.JSONObject;

/** A type whose state is a number on a value grid: two states are the same on the same step. */
abstract class GridControl extends Control {
    Grid grid;

    GridControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    @Override
    boolean same(Object a, Object b) {
        return a != null && b != null && grid.index(a) == grid.index(b);
    }
}
