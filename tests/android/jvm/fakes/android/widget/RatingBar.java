package android.widget;

/** A JVM fake: as Android's RatingBar, the rating is progress over a max of stars / step. */
public class RatingBar extends AbsSeekBar {
    private int stars = 5;
    private float step = 0.5f;
    public RatingBar(android.content.Context context) { super(context); }
    public RatingBar(android.content.Context context, android.util.AttributeSet attrs, int defStyleAttr) { super(context); }
    public int getNumStars() { return stars; }
    public void setNumStars(int numStars) { stars = numStars; setMax(Math.round(stars / step)); }
    public void setStepSize(float stepSize) { step = stepSize; setMax(Math.round(stars / step)); }
    public void setRating(float rating) { setProgress(Math.round(rating / step)); }
    public float getRating() { return getProgress() * step; }
    public void setIsIndicator(boolean isIndicator) {}
}
