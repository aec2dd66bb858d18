package android.content;
public class Intent {
    public String getAction() { throw new RuntimeException(); }
    public String getStringExtra(String name) { throw new RuntimeException(); }
    public int getIntExtra(String name, int defaultValue) { throw new RuntimeException(); }
}
