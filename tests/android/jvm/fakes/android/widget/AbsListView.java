package android.widget;

/** A JVM fake: single choice kept by position. */
public abstract class AbsListView extends android.view.ViewGroup {
    public static final int CHOICE_MODE_SINGLE = 1;
    private int checked = -1;
    public AbsListView(android.content.Context context) { super(context); }
    public void setChoiceMode(int choiceMode) {}
    public void setItemChecked(int position, boolean value) { if (value) checked = position; else if (checked == position) checked = -1; }
    public int getCheckedItemPosition() { return checked; }
    public int getFirstVisiblePosition() { return 0; }
    public void setVerticalScrollBarEnabled(boolean enabled) {}
}
