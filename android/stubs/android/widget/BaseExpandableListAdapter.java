package android.widget;
public abstract class BaseExpandableListAdapter implements ExpandableListAdapter {
    public BaseExpandableListAdapter() { throw new RuntimeException(); }
}
