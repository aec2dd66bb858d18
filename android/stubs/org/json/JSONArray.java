package org.json;
public class JSONArray {
    public int length() { throw new RuntimeException(); }
    public boolean isNull(int index) { throw new RuntimeException(); }
    public Object opt(int index) { throw new RuntimeException(); }
    public int optInt(int index) { throw new RuntimeException(); }
    public double optDouble(int index) { throw new RuntimeException(); }
    public String optString(int index) { throw new RuntimeException(); }
    public boolean optBoolean(int index) { throw new RuntimeException(); }
    public JSONArray optJSONArray(int index) { throw new RuntimeException(); }
    public JSONObject optJSONObject(int index) { throw new RuntimeException(); }
}
