package org.json;
public class JSONException extends Exception {
    public JSONException(String message) { throw new RuntimeException(); }
}
