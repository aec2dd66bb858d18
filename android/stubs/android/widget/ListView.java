package android.widget;
public class ListView extends AbsListView {
    public ListView(android.content.Context context) { super(context); }
    public void setAdapter(ListAdapter adapter) { throw new RuntimeException(); }
    public void setDividerHeight(int height) { throw new RuntimeException(); }
}
