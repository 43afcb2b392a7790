package io.lifeline.domain.gpu;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Builds an {@link XidPolicy} from four tables: NVSentinel's XID mapping (recommended action and severity),
 * NVIDIA's XID catalog (mnemonic, description, resolutions), dcgm-exporter's {@code err_msg} texts, and
 * Lifeline's own decision table. The three upstream tables are kept verbatim; see the README next to them.
 */
public final class XidPolicyLoader {

    static final String NVSENTINEL = "nvsentinel_xiderrorsmapping.csv";
    static final String CATALOG = "nvidia_xid_catalog_resolution_buckets.csv";
    static final String DCGM = "dcgm_exporter_xid_err_msg.csv";
    static final String LIFELINE = "lifeline_xid_policy.csv";

    private static final String VERSION_PREFIX = "# version:";

    private XidPolicyLoader() {}

    /** Loads the tables shipped under {@code /xid/} on the classpath. */
    public static XidPolicy fromClasspath() {
        return parse(resource(NVSENTINEL), resource(CATALOG), resource(DCGM), resource(LIFELINE));
    }

    /**
     * Builds a policy from the texts of the four tables.
     *
     * @throws IllegalArgumentException when a table is malformed
     */
    public static XidPolicy parse(String nvsentinel, String catalog, String dcgm, String lifeline) {
        Map<Integer, List<String>> sentinel = byXid(Csv.parse(nvsentinel), 4);
        Map<Integer, List<String>> nvidia = byXid(Csv.parse(catalog), 5);
        Map<Integer, List<String>> exporter = byXid(Csv.parse(dcgm), 2);
        LifelineTable own = LifelineTable.parse(lifeline);

        Set<Integer> codes = new TreeSet<>();
        codes.addAll(sentinel.keySet());
        codes.addAll(nvidia.keySet());
        codes.addAll(exporter.keySet());
        Map<Integer, XidRule> rules = new HashMap<>();
        for (int xid : codes) {
            rules.put(xid, rule(xid, sentinel.get(xid), nvidia.get(xid), exporter.get(xid), own));
        }
        String version = own.version + "+" + digest(nvsentinel, catalog, dcgm, lifeline);
        return new XidPolicy(version, rules, own.fallback);
    }

    private static XidRule rule(
            int xid, List<String> sentinel, List<String> nvidia, List<String> exporter, LifelineTable own) {
        String mnemonic = firstNonBlank(clean(field(nvidia, 1)), clean(field(sentinel, 1)));
        String description = firstNonBlank(meaningful(field(nvidia, 2)), meaningful(field(exporter, 1)));
        String recommendation = clean(field(sentinel, 2));
        String severity = clean(field(sentinel, 3));
        String investigation = clean(field(nvidia, 4));
        XidDecision d = own.byXid.get(xid);
        if (d == null && recommendation != null) {
            d = own.byRecommendation.get(key(recommendation, severity));
        }
        if (d == null) {
            d = own.fallback;
        }
        return new XidRule(
                xid,
                mnemonic,
                description,
                recommendation,
                "FATAL".equals(severity),
                investigation,
                d.action(),
                d.health(),
                d.note(),
                true);
    }

    /** Indexes records by their first field (the XID); a header row (first field not a number) is skipped. */
    private static Map<Integer, List<String>> byXid(List<List<String>> records, int width) {
        Map<Integer, List<String>> out = new HashMap<>();
        for (List<String> r : records) {
            Integer xid = parseIntOrNull(r.get(0));
            if (xid == null) {
                continue;
            }
            if (r.size() != width) {
                throw new IllegalArgumentException("XID " + xid + ": expected " + width + " fields, got " + r.size());
            }
            if (out.put(xid, r) != null) {
                throw new IllegalArgumentException("XID " + xid + " is listed twice");
            }
        }
        return out;
    }

    static String key(String recommendation, String severity) {
        return recommendation + "/" + (severity == null ? "" : severity);
    }

    private static String field(List<String> record, int i) {
        return record == null || i >= record.size() ? null : record.get(i);
    }

    /** Trims and collapses runs of whitespace (mnemonics in the catalog contain line breaks); blank becomes null. */
    static String clean(String s) {
        if (s == null) {
            return null;
        }
        String t = s.strip().replaceAll("\\s+", " ");
        return t.isEmpty() ? null : t;
    }

    /** Like {@link #clean} but also drops the catalog's placeholders that say nothing about the error. */
    private static String meaningful(String s) {
        String t = clean(s);
        if (t == null) {
            return null;
        }
        String lower = t.toLowerCase(Locale.ROOT);
        return lower.equals("unused") || lower.equals("reserved") ? null : t;
    }

    private static String firstNonBlank(String a, String b) {
        return a != null ? a : b;
    }

    static Integer parseIntOrNull(String s) {
        try {
            return Integer.valueOf(s.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String digest(String... texts) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (String t : texts) {
                md.update(t.getBytes(StandardCharsets.UTF_8));
            }
            byte[] h = md.digest();
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < 4; i++) {
                sb.append(String.format("%02x", h[i]));
            }
            return sb.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JDK", e);
        }
    }

    private static String resource(String name) {
        try (InputStream in = XidPolicyLoader.class.getResourceAsStream("/xid/" + name)) {
            if (in == null) {
                throw new IllegalStateException("XID policy table /xid/" + name + " is not on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read /xid/" + name, e);
        }
    }

    /** Lifeline's own table: {@code scope,key,severity,action,health,note}, with a {@code # version:} comment. */
    private static final class LifelineTable {
        private final String version;
        private final Map<String, XidDecision> byRecommendation = new HashMap<>();
        private final Map<Integer, XidDecision> byXid = new HashMap<>();
        private XidDecision fallback;

        private LifelineTable(String version) {
            this.version = version;
        }

        static LifelineTable parse(String text) {
            String version = null;
            StringBuilder body = new StringBuilder();
            for (String line : text.split("\r?\n|\r", -1)) {
                if (line.startsWith(VERSION_PREFIX)) {
                    version = line.substring(VERSION_PREFIX.length()).strip();
                } else if (!line.startsWith("#")) {
                    body.append(line).append('\n');
                }
            }
            if (version == null || version.isEmpty()) {
                throw new IllegalArgumentException(LIFELINE + ": missing '" + VERSION_PREFIX + "' line");
            }
            LifelineTable t = new LifelineTable(version);
            Set<String> seen = new HashSet<>();
            for (List<String> r : Csv.parse(body.toString())) {
                if (r.get(0).equals("scope")) {
                    continue;
                }
                t.add(r, seen);
            }
            if (t.fallback == null) {
                throw new IllegalArgumentException(LIFELINE + ": missing the 'default' row");
            }
            return t;
        }

        private void add(List<String> r, Set<String> seen) {
            if (r.size() != 6) {
                throw new IllegalArgumentException(LIFELINE + ": expected 6 fields, got " + r);
            }
            String scope = r.get(0).strip();
            String key = r.get(1).strip();
            if (!seen.add(scope + ":" + key + ":" + r.get(2).strip())) {
                throw new IllegalArgumentException(LIFELINE + ": duplicate row " + r);
            }
            XidDecision d = new XidDecision(
                    XidAction.valueOf(r.get(3).strip()),
                    GpuHealth.valueOf(r.get(4).strip()),
                    clean(r.get(5)));
            switch (scope) {
                case "recommendation" -> byRecommendation.put(key(key, clean(r.get(2))), d);
                case "xid" -> {
                    Integer xid = parseIntOrNull(key);
                    if (xid == null) {
                        throw new IllegalArgumentException(LIFELINE + ": not an XID: " + key);
                    }
                    byXid.put(xid, d);
                }
                case "default" -> fallback = d;
                default -> throw new IllegalArgumentException(LIFELINE + ": unknown scope " + scope);
            }
        }
    }
}
