package org.finestate.views;

import java.io.BufferedReader;
import java.io.InputStreamReader;

import org.json.JSONArray;
import org.json.JSONObject;

/**
 * The check programs' one loop: each input line "component TAB params TAB first TAB second
 * [TAB more]" goes to a check, whose answer is printed as a line of its own; a line whose check
 * throws prints "ERROR", the separator and the exception. Everything is printed at the end.
 */
final class CheckLines {
    interface Check {
        String answer(Line line) throws Exception;
    }

    /** One input line: its fields, `first` and `second` read as JSON values. */
    static final class Line {
        final String[] fields;
        final String component;
        final JSONObject params;
        final Object first;
        final Object second;
        private final android.app.Activity activity;

        Line(String[] fields, android.app.Activity activity) throws Exception {
            this.fields = fields;
            this.activity = activity;
            component = fields[0];
            params = new JSONObject(fields[1]);
            first = Controls.plain(new JSONArray("[" + fields[2] + "]").opt(0));
            second = Controls.plain(new JSONArray("[" + fields[3] + "]").opt(0));
        }

        /** The line's control built in `state` and laid out (the fakes' layout) at the origin. */
        Control control(Object state) {
            Control control = Controls.create(component, new Ui(activity, "material-light"), params);
            control.card = control.build(state);
            android.view.ViewGroup.layOut(control.card, 0, 0, 1080);
            return control;
        }
    }

    static void run(String errorSeparator, Check check) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        StringBuilder out = new StringBuilder();
        android.app.Activity activity = new android.app.Activity();
        for (String line; (line = in.readLine()) != null;) {
            try {
                out.append(check.answer(new Line(line.split("\t"), activity))).append('\n');
            } catch (Exception e) {
                out.append("ERROR").append(errorSeparator).append(e).append('\n');
            }
        }
        System.out.print(out);
    }

    private CheckLines() {
    }
}
