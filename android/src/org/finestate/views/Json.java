package org.finestate.views;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import org.json.JSONArray;
import org.json.JSONObject;

/** JSON out, written here so that numbers keep the grid's decimals (-1.8, never -1.8000000000000003). */
final class Json {
    private Json() {}

    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value);
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private static void write(StringBuilder out, Object value) {
        if (value == null || value == JSONObject.NULL) {
            out.append("null");
        } else if (value instanceof String) {
            quote(out, (String) value);
        } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long) {
            out.append(value.toString());
        } else if (value instanceof BigDecimal) {
            out.append(((BigDecimal) value).toPlainString());
        } else if (value instanceof Double) {
            out.append(Grid.decimal(value).toPlainString());
        } else if (value instanceof int[]) {
            int[] array = (int[]) value;
            out.append('[');
            for (int i = 0; i < array.length; i++) {
                if (i > 0) out.append(',');
                out.append(array[i]);
            }
            out.append(']');
        } else if (value instanceof List) {
            out.append('[');
            boolean first = true;
            for (Object item : (List<Object>) value) {
                if (!first) out.append(',');
                first = false;
                write(out, item);
            }
            out.append(']');
        } else if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> entry : ((Map<String, Object>) value).entrySet()) {
                if (!first) out.append(',');
                first = false;
                quote(out, entry.getKey());
                out.append(':');
                write(out, entry.getValue());
            }
            out.append('}');
        } else {
            throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as JSON");
        }
    }

    private static void quote(StringBuilder out, String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }

    /** A JSON array of strings as a Java list (the spec's label lists and list states). */
    static java.util.ArrayList<String> strings(JSONArray array) {
        java.util.ArrayList<String> out = new java.util.ArrayList<String>();
        for (int i = 0; array != null && i < array.length(); i++) {
            out.add(array.optString(i));
        }
        return out;
    }
}
