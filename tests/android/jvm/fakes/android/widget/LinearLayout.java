package android.widget;

import android.content.Context;
import android.view.View;

/** A JVM fake of LinearLayout: children in a row or a column inside the padding, weights sharing
 * what a row leaves, wrapped to the children where the params say WRAP_CONTENT. */
public class LinearLayout extends android.view.ViewGroup {
    public static final int HORIZONTAL = 0;
    public static final int VERTICAL = 1;
    public static class LayoutParams extends android.view.ViewGroup.MarginLayoutParams {
        public float weight;
        public LayoutParams(int width, int height) { super(width, height); }
        public LayoutParams(int width, int height, float weight) { super(width, height); this.weight = weight; }
    }
    private int orientation = HORIZONTAL;
    public LinearLayout(Context context) { super(context); }
    public void setOrientation(int orientation) { this.orientation = orientation; }
    public void setGravity(int gravity) {}

    @Override
    public int[] fakePlace(int x, int y, int available) {
        int[] own = fakePlaceSelf(x, y, available);
        int inner = own[0] - getPaddingLeft() - getPaddingRight();
        int cx = x + getPaddingLeft();
        int cy = y + getPaddingTop();
        int fixed = 0;
        float weights = 0;
        for (View child : fakeChildren()) {
            android.view.ViewGroup.LayoutParams lp = child.getLayoutParams();
            float weight = lp instanceof LayoutParams ? ((LayoutParams) lp).weight : 0;
            if (orientation == HORIZONTAL && weight > 0) weights += weight;
            else if (orientation == HORIZONTAL) fixed += lp.width >= 0 ? lp.width : View.NOMINAL_W;
        }
        int across = 0;
        for (View child : fakeChildren()) {
            android.view.ViewGroup.LayoutParams lp = child.getLayoutParams();
            int ml = lp instanceof android.view.ViewGroup.MarginLayoutParams
                    ? ((android.view.ViewGroup.MarginLayoutParams) lp).leftMargin : 0;
            int mt = lp instanceof android.view.ViewGroup.MarginLayoutParams
                    ? ((android.view.ViewGroup.MarginLayoutParams) lp).topMargin : 0;
            float weight = lp instanceof LayoutParams ? ((LayoutParams) lp).weight : 0;
            if (orientation == HORIZONTAL && weight > 0) {
                lp.width = (int) ((inner - fixed) * weight / weights);
            }
            int[] size = child.fakePlace(cx + ml, cy + mt, orientation == VERTICAL ? inner - ml : inner);
            if (orientation == VERTICAL) {
                cy += mt + size[1];
                across = Math.max(across, ml + size[0]);
            } else {
                cx += ml + size[0];
                across = Math.max(across, mt + size[1]);
            }
        }
        int pads = getPaddingLeft() + getPaddingRight();
        int padsV = getPaddingTop() + getPaddingBottom();
        if (orientation == VERTICAL) fakeWrap(across + pads, cy - y + getPaddingBottom());
        else fakeWrap(cx - x + getPaddingRight(), across + padsV);
        return new int[] {getWidth(), getHeight()};
    }
}
