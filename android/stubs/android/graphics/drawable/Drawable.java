package android.graphics.drawable;
public abstract class Drawable {
    public final android.graphics.Rect getBounds() { throw new RuntimeException(); }
}
