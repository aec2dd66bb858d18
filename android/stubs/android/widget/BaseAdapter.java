package android.widget;
public abstract class BaseAdapter implements ListAdapter {
    public BaseAdapter() { throw new RuntimeException(); }
}
