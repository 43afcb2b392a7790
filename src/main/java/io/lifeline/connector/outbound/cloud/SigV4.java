package io.lifeline.connector.outbound.cloud;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4 with the JDK alone: the headers ({@code X-Amz-Date}, {@code Authorization}, and
 * {@code X-Amz-Security-Token} for temporary credentials) that sign one request. Headers are signed as given
 * (host included, lower-cased, trimmed); the query string must already be in canonical form (sorted, encoded).
 */
public final class SigV4 {

    private static final DateTimeFormatter AMZ_DATE =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    /** Access key, secret and (for temporary credentials) the session token, or null. */
    public record Credentials(String accessKeyId, String secretAccessKey, String sessionToken) {
        @Override
        public String toString() {
            return "Credentials[" + accessKeyId + "]"; // never the secret in a log line
        }
    }

    private SigV4() {}

    /**
     * The headers to add to a request of {@code method} on {@code path?query} with {@code headers} (host at least) and
     * {@code payload}, signed for {@code region} and {@code service} at {@code now}.
     */
    public static Map<String, String> sign(
            String method,
            String path,
            String query,
            Map<String, String> headers,
            byte[] payload,
            String region,
            String service,
            Credentials c,
            Instant now) {
        String amzDate = AMZ_DATE.format(now);
        String day = amzDate.substring(0, 8);
        TreeMap<String, String> canonical = new TreeMap<>();
        headers.forEach(
                (k, v) -> canonical.put(k.toLowerCase(Locale.ROOT), v.trim().replaceAll("\\s+", " ")));
        canonical.put("x-amz-date", amzDate);
        if (c.sessionToken() != null && !c.sessionToken().isBlank()) {
            canonical.put("x-amz-security-token", c.sessionToken());
        }
        StringBuilder headerBlock = new StringBuilder();
        canonical.forEach((k, v) -> headerBlock.append(k).append(':').append(v).append('\n'));
        String signedHeaders = String.join(";", canonical.keySet());
        String request = method
                + '\n'
                + (path.isEmpty() ? "/" : path)
                + '\n'
                + (query == null ? "" : query)
                + '\n'
                + headerBlock
                + '\n'
                + signedHeaders
                + '\n'
                + hex(sha256(payload));
        String scope = day + "/" + region + "/" + service + "/aws4_request";
        String toSign = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n"
                + hex(sha256(request.getBytes(StandardCharsets.UTF_8)));
        byte[] key = hmac(("AWS4" + c.secretAccessKey()).getBytes(StandardCharsets.UTF_8), day);
        key = hmac(key, region);
        key = hmac(key, service);
        key = hmac(key, "aws4_request");
        String signature = hex(hmac(key, toSign));
        Map<String, String> out = new TreeMap<>();
        out.put("X-Amz-Date", amzDate);
        if (canonical.containsKey("x-amz-security-token")) {
            out.put("X-Amz-Security-Token", c.sessionToken());
        }
        out.put(
                "Authorization",
                "AWS4-HMAC-SHA256 Credential=" + c.accessKeyId() + "/" + scope + ", SignedHeaders=" + signedHeaders
                        + ", Signature=" + signature);
        return out;
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
