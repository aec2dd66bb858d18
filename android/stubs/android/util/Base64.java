package android.util;
public class Base64 {
    public static final int DEFAULT = 0;
    public static byte[] decode(String str, int flags) { throw new RuntimeException(); }
}
