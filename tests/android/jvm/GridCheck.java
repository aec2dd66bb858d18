package org.finestate.views;

import java.io.BufferedReader;
import java.io.InputStreamReader;

/**
 * Runs the app's Grid and Json on the host JVM (they use no Android class): for each input line
 * "min step max", prints every grid value 0..last as the app reports it (Json.write), one line
 * each, then "--". tests/android/test_app_logic.py compares them with the Python types.
 */
public final class GridCheck {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        StringBuilder out = new StringBuilder();
        for (String line; (line = in.readLine()) != null;) {
            String[] f = line.trim().split(" ");
            Grid grid = new Grid(Double.valueOf(f[0]), Double.valueOf(f[1]), Double.valueOf(f[2]));
            for (int k = 0; k <= grid.last; k++) {
                Object value = grid.value(k);
                if (grid.index(value) != k) throw new AssertionError("index(value(" + k + ")) != " + k);
                out.append(Json.write(value)).append('\n');
            }
            out.append("--\n");
        }
        System.out.print(out);
    }
}
