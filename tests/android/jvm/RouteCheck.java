package org.finestate.views;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

import org.json.JSONArray;
import org.json.JSONObject;

/**
 * Far goals on the host JVM (over the fakes and their simple layout): per line "component TAB
 * params TAB current TAB goal", the control is built in `current` and, as the oracle does on a
 * device, tapped at the centre of the goal box it measures, laid out again, measured again, until
 * its reach is 0 or after 12 taps. Prints {"reaches", "boxes", "state"}: the reach and the
 * current boxes measured before each tap and after the last, and the state it ends in.
 */
public final class RouteCheck {
    private static final int MOST_TAPS = 12;

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        StringBuilder out = new StringBuilder();
        android.app.Activity activity = new android.app.Activity();
        for (String line; (line = in.readLine()) != null;) {
            String[] f = line.split("\t");
            try {
                JSONObject params = new JSONObject(f[1]);
                Object current = Controls.plain(new JSONArray("[" + f[2] + "]").opt(0));
                Object goal = Controls.plain(new JSONArray("[" + f[3] + "]").opt(0));
                Control live = Controls.create(f[0], new Ui(activity, "material-light"), params);
                live.card = live.build(current);
                ArrayList<Object> reaches = new ArrayList<Object>();
                ArrayList<Object> boxes = new ArrayList<Object>();
                for (int taps = 0;; taps++) {
                    android.view.ViewGroup.layOut(live.card, 0, 0, 1080);
                    Map<String, int[]> measured = live.boxes(goal, null);
                    Integer reach = live.reach(goal);
                    reaches.add(reach);
                    boxes.add(measured);
                    if (reach == null || reach == 0 || taps == MOST_TAPS) break;
                    int[] aim = measured.get("goal");
                    int x = Ui.centre(aim[0], aim[2]);
                    int y = Ui.centre(aim[1], aim[3]);
                    Probe.drag(live, x, y, x, y);
                }
                Map<String, Object> result = new LinkedHashMap<String, Object>();
                result.put("reaches", reaches);
                result.put("boxes", boxes);
                result.put("state", live.state());
                out.append(Json.write(result)).append('\n');
            } catch (Exception e) {
                out.append("ERROR ").append(e).append('\n');
            }
        }
        System.out.print(out);
    }
}
