package android.widget;
public class ExpandableListView extends ListView {
    public interface OnGroupExpandListener { void onGroupExpand(int groupPosition); }
    public ExpandableListView(android.content.Context context) { super(context); }
    public void setAdapter(ExpandableListAdapter adapter) { throw new RuntimeException(); }
    public void setGroupIndicator(android.graphics.drawable.Drawable groupIndicator) { throw new RuntimeException(); }
    public void setOnGroupExpandListener(OnGroupExpandListener onGroupExpandListener) { throw new RuntimeException(); }
    public boolean expandGroup(int groupPos) { throw new RuntimeException(); }
    public boolean collapseGroup(int groupPos) { throw new RuntimeException(); }
    public boolean isGroupExpanded(int groupPosition) { throw new RuntimeException(); }
    public int getFlatListPosition(long packedPosition) { throw new RuntimeException(); }
    public static long getPackedPositionForGroup(int groupPosition) { throw new RuntimeException(); }
}
