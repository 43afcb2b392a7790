package io.lifeline.alert;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs webhook bodies, and verifies them on the receiving side. The signature is
 * {@code sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>}, sent as {@code X-Lifeline-Signature} with the
 * timestamp (Unix seconds) as {@code X-Lifeline-Timestamp}. Signing the timestamp lets a receiver refuse a replayed
 * old delivery: {@link #verify} rejects timestamps further than {@code tolerance} from its own clock. Receivers
 * should also drop repeats of an {@code Idempotency-Key} they have already processed (Lifeline delivers at least
 * once).
 */
public final class WebhookSignature {

    /** Header carrying the signature. */
    public static final String SIGNATURE_HEADER = "X-Lifeline-Signature";
    /** Header carrying the signed timestamp. */
    public static final String TIMESTAMP_HEADER = "X-Lifeline-Timestamp";
    /** Header carrying the key that is the same for every attempt of one notification. */
    public static final String IDEMPOTENCY_HEADER = "Idempotency-Key";

    /** What {@link #verify} found. */
    public enum Result {
        /** Signed with this secret, recently. */
        VALID,
        /** The signature does not match (wrong secret, or body or timestamp changed). */
        BAD_SIGNATURE,
        /** A good signature, but the timestamp is outside the tolerance: a replay, or a badly skewed clock. */
        TOO_OLD,
        /** Missing or unparseable timestamp or signature. */
        MALFORMED
    }

    private WebhookSignature() {}

    /** {@code sha256=<hex>} over {@code "<timestamp>.<body>"}. */
    public static String sign(String secret, String timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update(timestamp.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) '.');
            mac.update(body);
            return "sha256=" + HexFormat.of().formatHex(mac.doFinal());
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /**
     * Checks a delivery as a receiver would.
     *
     * @param secret     the shared secret
     * @param timestamp  the {@code X-Lifeline-Timestamp} header
     * @param body       the raw request body
     * @param signature  the {@code X-Lifeline-Signature} header
     * @param now        the receiver's clock
     * @param tolerance  how far the timestamp may be from {@code now} (e.g. 5 minutes)
     */
    public static Result verify(
            String secret, String timestamp, byte[] body, String signature, Instant now, Duration tolerance) {
        if (timestamp == null || signature == null || !signature.startsWith("sha256=")) {
            return Result.MALFORMED;
        }
        long seconds;
        try {
            seconds = Long.parseLong(timestamp.trim());
        } catch (NumberFormatException e) {
            return Result.MALFORMED;
        }
        byte[] expected = sign(secret, timestamp, body).getBytes(StandardCharsets.US_ASCII);
        if (!MessageDigest.isEqual(expected, signature.trim().getBytes(StandardCharsets.US_ASCII))) {
            return Result.BAD_SIGNATURE;
        }
        long skew = Math.abs(now.getEpochSecond() - seconds);
        return skew > tolerance.getSeconds() ? Result.TOO_OLD : Result.VALID;
    }
}
