package org.finestate.views;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;

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
        CheckLines.run(" ", line -> {
            Object goal = line.second;
            Control live = line.control(line.first);
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
            return Json.write(result);
        });
    }
}
