package org.finestate.views;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** A numeric value on the grid min + k * step, k in [0, last], in exact decimals. */
final class Grid {
    final BigDecimal min;
    final BigDecimal step;
    final int last;

    Grid(Object min, Object step, Object max) {
        this.min = decimal(min);
        this.step = decimal(step);
        this.last = index(max);
    }

    static BigDecimal decimal(Object number) {
        if (!(number instanceof Number)) {
            throw new IllegalArgumentException("not a number: " + number);
        }
        // Double.toString gives the shortest text that reads back as the same double.
        return new BigDecimal(number.toString()).stripTrailingZeros();
    }

    /** The nearest k of a value (a state or a param), not clamped. */
    int index(Object value) {
        return decimal(value).subtract(min).divide(step, 0, RoundingMode.HALF_EVEN).intValue();
    }

    BigDecimal value(int k) {
        BigDecimal v = min.add(step.multiply(BigDecimal.valueOf(k))).stripTrailingZeros();
        return v.signum() == 0 ? BigDecimal.ZERO : v;
    }

    int clamp(int k) {
        return Math.max(0, Math.min(last, k));
    }
}
