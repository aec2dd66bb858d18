package android.widget;
public abstract class AbsListView extends android.view.ViewGroup {
    public static final int CHOICE_MODE_SINGLE = 1;
    public AbsListView(android.content.Context context) { super(context); }
    public void setChoiceMode(int choiceMode) { throw new RuntimeException(); }
    public void setItemChecked(int position, boolean value) { throw new RuntimeException(); }
    public int getCheckedItemPosition() { throw new RuntimeException(); }
    public int getFirstVisiblePosition() { throw new RuntimeException(); }
    public void setVerticalScrollBarEnabled(boolean enabled) { throw new RuntimeException(); }
}
