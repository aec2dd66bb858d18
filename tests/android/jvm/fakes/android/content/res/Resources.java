package android.content.res;

/** A JVM fake: a 1080 px wide phone at density 3 (the Mobile env's screen). */
public class Resources {
    private final android.util.DisplayMetrics metrics = new android.util.DisplayMetrics();
    public Resources() { metrics.density = 3f; metrics.widthPixels = 1080; metrics.heightPixels = 2400; }
    public android.util.DisplayMetrics getDisplayMetrics() { return metrics; }
}
