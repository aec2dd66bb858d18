package org.finestate.views;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.LinkedHashMap;
import java.util.Map;

import org.json.JSONArray;
import org.json.JSONObject;

/**
 * The controls' geometry on the host JVM (over the fakes and their simple layout): per line "component TAB params TAB current TAB goal TAB gesture", measures
 * the current boxes (a drag type's goal band probed on a copy, as on a device), performs the
 * oracle's gesture (a drag from the centre of `now` to the centre of `goal`, a tap at the latter
 * for a tap type) on the control shown, and prints {"boxes", "state", "outside"}: `outside` the
 * states a release one pixel beyond each end of a band gives.
 */
public final class DragCheck {
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
                boolean tap = "tap".equals(f[4]);
                Control live = make(f[0], activity, params, current);
                Control probe = make(f[0], activity, params, current);
                Map<String, int[]> boxes = live.boxes(goal, live.probed() ? probe : null);
                int[] now = boxes.get("now");
                int[] aim = boxes.get("goal");
                int x1 = Ui.centre(aim[0], aim[2]);
                int y1 = Ui.centre(aim[1], aim[3]);
                int x0 = tap ? x1 : Ui.centre(now[0], now[2]);
                int y0 = tap ? y1 : Ui.centre(now[1], now[3]);
                java.util.ArrayList<Object> outside = new java.util.ArrayList<Object>();
                if (live.probed()) {
                    boolean alongX = aim[1] == boxes.get("core")[1] && aim[3] == boxes.get("core")[3];
                    int[][] ends = alongX ? new int[][] {{aim[0] - 1, y1}, {aim[2] + 1, y1}}
                            : new int[][] {{x1, aim[1] - 1}, {x1, aim[3] + 1}};
                    for (int[] end : ends) {
                        Control copy = make(f[0], activity, params, current);
                        outside.add(Probe.drag(copy, x0, y0, end[0], end[1]));
                    }
                }
                Map<String, Object> result = new LinkedHashMap<String, Object>();
                result.put("boxes", boxes);
                result.put("state", Probe.drag(live, x0, y0, x1, y1));
                result.put("outside", outside);
                out.append(Json.write(result)).append('\n');
            } catch (Exception e) {
                out.append("ERROR ").append(e).append('\n');
            }
        }
        System.out.print(out);
    }

    /** A control built in `state` and laid out (the fakes' layout) at the screen's origin. */
    private static Control make(String component, android.app.Activity activity, JSONObject params,
                                Object state) {
        Control control = Controls.create(component, new Ui(activity, "material-light"), params);
        control.card = control.build(state);
        android.view.ViewGroup.layOut(control.card, 0, 0, 1080);
        return control;
    }
}
