package android.widget;
public interface ExpandableListAdapter {
    int getGroupCount();
    int getChildrenCount(int groupPosition);
    Object getGroup(int groupPosition);
    Object getChild(int groupPosition, int childPosition);
    long getGroupId(int groupPosition);
    long getChildId(int groupPosition, int childPosition);
    boolean hasStableIds();
    android.view.View getGroupView(int groupPosition, boolean isExpanded, android.view.View convertView, android.view.ViewGroup parent);
    android.view.View getChildView(int groupPosition, int childPosition, boolean isLastChild, android.view.View convertView, android.view.ViewGroup parent);
    boolean isChildSelectable(int groupPosition, int childPosition);
}
