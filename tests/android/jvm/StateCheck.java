package org.finestate.views;

import java.io.BufferedReader;
import java.io.InputStreamReader;

import org.json.JSONArray;
import org.json.JSONObject;

/**
 * Runs the app's controls on the host JVM over fake android.* classes (tests/android/jvm/fakes
 * and the stubs made inert): per input line "component TAB params TAB state TAB other", builds
 * the control showing `state`, prints what state() reads back, then (drag types) apply(other)
 * and what it reads back, and the card's width in the fakes' layout: "state TAB applied TAB
 * width", or "ERROR TAB message". No touch.
 */
public final class StateCheck {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        StringBuilder out = new StringBuilder();
        android.app.Activity activity = new android.app.Activity();
        for (String line; (line = in.readLine()) != null;) {
            String[] f = line.split("\t");
            try {
                JSONObject params = new JSONObject(f[1]);
                Object state = Controls.plain(new JSONArray("[" + f[2] + "]").opt(0));
                Object other = Controls.plain(new JSONArray("[" + f[3] + "]").opt(0));
                Control control = Controls.create(f[0], new Ui(activity, "material-light"), params);
                control.card = control.build(state);
                android.view.ViewGroup.layOut(control.card, 0, 0, 1080);
                String shown = Json.write(control.state());
                String applied = "-";
                if (control.probed()) {
                    control.apply(other);
                    applied = Json.write(control.state());
                }
                out.append(shown).append('\t').append(applied).append('\t')
                        .append(control.card.getWidth()).append('\n');
            } catch (Exception e) {
                out.append("ERROR\t").append(e).append('\n');
            }
        }
        System.out.print(out);
    }
}
