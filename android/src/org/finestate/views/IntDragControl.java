package org.finestate.views;

import java.math.BigDecimal;

import org.json.JSONObject;

/**
 * A dragged type whose state is one whole number held by its custom View (a size in px, a first
 * row): the state reads it, `apply` sets it, and the goal box is probed.
 */
abstract class IntDragControl extends Control {
    IntDragControl(Ui ui, JSONObject params) {
        super(ui, params);
    }

    /** The number the View shows. */
    abstract int shown();

    /** Makes the View show `value` (on the invisible probing copy only). */
    abstract void show(int value);

    @Override
    final Object state() {
        return BigDecimal.valueOf(shown());
    }

    @Override
    final boolean same(Object a, Object b) {
        return a != null && b != null && ((Number) a).intValue() == ((Number) b).intValue();
    }

    @Override
    final boolean probed() {
        return true;
    }

    @Override
    final void apply(Object state) {
        show(((Number) state).intValue());
    }
}
