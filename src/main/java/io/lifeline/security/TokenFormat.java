package io.lifeline.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The API token format: {@code llt_<id>_<secret>}. The prefix makes a leaked token easy to recognise (secret
 * scanners, log reviews); the id is public and selects the stored row, so verification is one key lookup, never a
 * scan; the secret is 256 random bits of which only the SHA-256 is stored. A fast hash is enough here because the
 * secret is random, not a password: there is nothing to guess from a dictionary.
 */
public final class TokenFormat {

    /** Every Lifeline token starts with this. */
    public static final String PREFIX = "llt_";

    static final int ID_LENGTH = 12;
    private static final int SECRET_BYTES = 32;
    private static final int SECRET_LENGTH = 43;
    private static final char[] ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();
    private static final SecureRandom RANDOM = new SecureRandom();

    private TokenFormat() {}

    /** A token split into its public id and its secret. */
    public record Parsed(String id, String secret) {

        @Override
        public String toString() {
            // Never print the secret, even by accident in a debugger or an exception message.
            return "Parsed[id=" + id + "]";
        }
    }

    /** A freshly generated token: the full string to hand out once, and what to store. */
    public record Generated(String id, String token, byte[] secretSha256) {

        @Override
        public String toString() {
            return "Generated[id=" + id + "]";
        }
    }

    /** Makes a new random id and secret. */
    public static Generated generate() {
        char[] id = new char[ID_LENGTH];
        for (int i = 0; i < id.length; i++) {
            id[i] = ID_ALPHABET[RANDOM.nextInt(ID_ALPHABET.length)];
        }
        byte[] secret = new byte[SECRET_BYTES];
        RANDOM.nextBytes(secret);
        String s = Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
        String idString = new String(id);
        return new Generated(idString, PREFIX + idString + "_" + s, sha256(s));
    }

    /** Splits a presented token, or returns {@code null} when it is not shaped like one of ours. */
    public static Parsed parse(String token) {
        if (token == null
                || token.length() != PREFIX.length() + ID_LENGTH + 1 + SECRET_LENGTH
                || !token.startsWith(PREFIX)
                || token.charAt(PREFIX.length() + ID_LENGTH) != '_') {
            return null;
        }
        String id = token.substring(PREFIX.length(), PREFIX.length() + ID_LENGTH);
        String secret = token.substring(PREFIX.length() + ID_LENGTH + 1);
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '2' && c <= '7')) {
                return null;
            }
        }
        for (int i = 0; i < secret.length(); i++) {
            char c = secret.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_')) {
                return null;
            }
        }
        return new Parsed(id, secret);
    }

    /** True when {@code secret} hashes to {@code expectedSha256}; the comparison takes the same time either way. */
    public static boolean matches(String secret, byte[] expectedSha256) {
        return expectedSha256 != null && MessageDigest.isEqual(sha256(secret), expectedSha256);
    }

    static byte[] sha256(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
