package org.json;
public class JSONObject {
    public static final Object NULL = null;
    public JSONObject(String json) throws JSONException { throw new RuntimeException(); }
    public boolean has(String name) { throw new RuntimeException(); }
    public boolean isNull(String name) { throw new RuntimeException(); }
    public Object opt(String name) { throw new RuntimeException(); }
    public int optInt(String name) { throw new RuntimeException(); }
    public double optDouble(String name) { throw new RuntimeException(); }
    public String optString(String name) { throw new RuntimeException(); }
    public boolean optBoolean(String name) { throw new RuntimeException(); }
    public int optInt(String name, int fallback) { throw new RuntimeException(); }
    public double optDouble(String name, double fallback) { throw new RuntimeException(); }
    public String optString(String name, String fallback) { throw new RuntimeException(); }
    public JSONArray optJSONArray(String name) { throw new RuntimeException(); }
    public JSONObject optJSONObject(String name) { throw new RuntimeException(); }
}
