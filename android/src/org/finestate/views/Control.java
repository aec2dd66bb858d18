package org.finestate.views;

import java.util.LinkedHashMap;
import java.util.Map;

import android.view.View;

import org.json.JSONObject;

/**
 * One rendered instance of a type: `build` makes its views showing a state, `state` reads the
 * state back from the views alone, and `boxes` measures the four boxes (loc, core, goal, now) of
 * the configuration shown, in screen pixels with inclusive edges.
 *
 * A drag type's goal box is measured by `Probe` on `probe`, an invisible copy showing the same
 * state, which `apply` puts back after each probing gesture. Nothing but touch input changes the
 * copy the user sees.
 */
abstract class Control {
    final Ui ui;
    final JSONObject p;
    View card;
    // Goal bands probed on this copy, by geometry and goal: Render measures twice to see the
    // layout settled, and the second measurement of an unchanged layout probes nothing.
    final Map<String, int[]> bands = new java.util.HashMap<String, int[]>();

    Control(Ui ui, JSONObject params) {
        this.ui = ui;
        this.p = params;
    }

    /** Builds the views showing `state`; returns the card. */
    abstract View build(Object state);

    abstract Object state();

    /** loc, core, goal, now of what is shown; `probe` is a copy in the same state (drag types). */
    abstract void measure(Object goal, Control probe, Map<String, int[]> out);

    /** True for the types whose goal box `Probe` measures (they implement `apply`). */
    boolean probed() {
        return false;
    }

    /** Shows `state` again (only ever called on an invisible probing copy). */
    void apply(Object state) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " is not probed");
    }

    /** Exact equality of two states of this type (on its own grid). */
    boolean same(Object a, Object b) {
        return Json.write(a).equals(Json.write(b));
    }

    /** Gestures the shortest route from what is shown to `goal` still takes: 0 at the goal, 1
     * when the goal box reaches it, more for a goal further away (episodes of several gestures);
     * null for a type whose every goal is one gesture away. */
    Integer reach(Object goal) {
        return null;
    }

    final Map<String, int[]> boxes(Object goal, Control probe) {
        Map<String, int[]> out = new LinkedHashMap<String, int[]>();
        measure(goal, probe, out);
        return out;
    }

    String title(String key) {
        return p.isNull(key) ? null : p.optString(key);
    }
}
