package android.graphics;
public class Canvas {
    public void drawRect(float left, float top, float right, float bottom, Paint paint) { throw new RuntimeException(); }
    public void drawCircle(float cx, float cy, float radius, Paint paint) { throw new RuntimeException(); }
    public void drawLine(float startX, float startY, float stopX, float stopY, Paint paint) { throw new RuntimeException(); }
    public void drawText(String text, float x, float y, Paint paint) { throw new RuntimeException(); }
    public void drawColor(int color) { throw new RuntimeException(); }
}
