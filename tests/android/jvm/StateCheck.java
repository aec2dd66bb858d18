package org.finestate.views;

/**
 * Runs the app's controls on the host JVM over fake android.* classes (tests/android/jvm/fakes
 * and the stubs made inert): per input line "component TAB params TAB state TAB other", builds
 * the control showing `state`, prints what state() reads back, then (drag types) apply(other)
 * and what it reads back, and the card's width in the fakes' layout: "state TAB applied TAB
 * width", or "ERROR TAB message". No touch.
 */
public final class StateCheck {
    public static void main(String[] args) throws Exception {
        CheckLines.run("\t", line -> {
            Control control = line.control(line.first);
            String shown = Json.write(control.state());
            String applied = "-";
            if (control.probed()) {
                control.apply(line.second);
                applied = Json.write(control.state());
            }
            return shown + "\t" + applied + "\t" + control.card.getWidth();
        });
    }
}
