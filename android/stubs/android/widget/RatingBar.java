package android.widget;
public class RatingBar extends AbsSeekBar {
    public RatingBar(android.content.Context context) { super(context); }
    public RatingBar(android.content.Context context, android.util.AttributeSet attrs, int defStyleAttr) { super(context); }
    public int getNumStars() { throw new RuntimeException(); }
    public void setNumStars(int numStars) { throw new RuntimeException(); }
    public void setStepSize(float stepSize) { throw new RuntimeException(); }
    public void setRating(float rating) { throw new RuntimeException(); }
    public float getRating() { throw new RuntimeException(); }
    public void setIsIndicator(boolean isIndicator) { throw new RuntimeException(); }
}
