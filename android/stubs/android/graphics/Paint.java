package android.graphics;
public class Paint {
    public static final int ANTI_ALIAS_FLAG = 1;
    public enum Style { FILL, STROKE, FILL_AND_STROKE }
    public enum Align { LEFT, CENTER, RIGHT }
    public Paint(int flags) { throw new RuntimeException(); }
    public void setColor(int color) { throw new RuntimeException(); }
    public void setStyle(Style style) { throw new RuntimeException(); }
    public void setStrokeWidth(float width) { throw new RuntimeException(); }
    public void setTextSize(float textSize) { throw new RuntimeException(); }
    public void setTextAlign(Align align) { throw new RuntimeException(); }
}
