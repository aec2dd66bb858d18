package android.widget;

import java.util.HashSet;

/** A JVM fake: the expanded groups kept; expanding calls the listener, as Android's. */
public class ExpandableListView extends ListView {
    public interface OnGroupExpandListener { void onGroupExpand(int groupPosition); }
    private final HashSet<Integer> expanded = new HashSet<Integer>();
    private OnGroupExpandListener listener;
    private ExpandableListAdapter adapter;
    public ExpandableListView(android.content.Context context) { super(context); }
    public void setAdapter(ExpandableListAdapter adapter) { this.adapter = adapter; }
    public void setGroupIndicator(android.graphics.drawable.Drawable groupIndicator) {}
    public void setOnGroupExpandListener(OnGroupExpandListener l) { listener = l; }
    public boolean expandGroup(int groupPos) {
        if (groupPos < 0 || groupPos >= adapter.getGroupCount()) throw new IndexOutOfBoundsException("group " + groupPos);
        boolean added = expanded.add(groupPos);
        if (added && listener != null) listener.onGroupExpand(groupPos);
        return added;
    }
    public boolean collapseGroup(int groupPos) { return expanded.remove(groupPos); }
    public boolean isGroupExpanded(int groupPosition) { return expanded.contains(groupPosition); }
    public int getFlatListPosition(long packedPosition) { return 0; }
    public static long getPackedPositionForGroup(int groupPosition) { return groupPosition; }
}
