package org.finestate.views;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The controls' geometry on the host JVM (over the fakes and their simple layout): per line "component TAB params TAB current TAB goal TAB gesture", measures
 * the current boxes (a drag type's goal band probed on a copy, as on a device), performs the
 * oracle's gesture (a drag from the centre of `now` to the centre of `goal`, a tap at the latter
 * for a tap type) on the control shown, and prints {"boxes", "state", "outside"}: `outside` the
 * states a release one pixel beyond each end of a band gives.
 */
public final class DragCheck {
    public static void main(String[] args) throws Exception {
        CheckLines.run(" ", line -> {
            boolean tap = "tap".equals(line.fields[4]);
            Control live = line.control(line.first);
            Control probe = line.control(line.first);
            Map<String, int[]> boxes = live.boxes(line.second, live.probed() ? probe : null);
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
                    Control copy = line.control(line.first);
                    outside.add(Probe.drag(copy, x0, y0, end[0], end[1]));
                }
            }
            Map<String, Object> result = new LinkedHashMap<String, Object>();
            result.put("boxes", boxes);
            result.put("state", Probe.drag(live, x0, y0, x1, y1));
            result.put("outside", outside);
            return Json.write(result);
        });
    }
}
