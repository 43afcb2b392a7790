package io.lifeline.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * Hostile variants of real inputs for the fuzz properties: a real sample (a fixture) changed by a few mutations,
 * byte by byte (flips, hostile bytes, truncation, deletion and duplication of ranges or lines, insertion of hostile
 * snippets: NUL, control characters, invalid UTF-8, huge numbers, deep nesting, long strings) and, for JSON, member
 * by member (deletion, duplicated keys, renamed keys, values replaced by hostile ones of the wrong type or size).
 * A case prints as its seed's name and its mutations, so a failing try can be read and replayed. Every input stays
 * below {@link #MAX_BYTES}, so that no try can take long.
 */
public final class Hostile {

    /** The largest input a case makes. */
    public static final int MAX_BYTES = 192 * 1024;

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /** How deep a mutated document may nest: far beyond every parser's limit. */
    private static final int MAX_DEPTH = 1100;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private Hostile() {}

    /** A real input the mutations start from. */
    public record Seed(String name, byte[] bytes) {
        public static Seed of(String name, String text) {
            return new Seed(name, text.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** One generated input: a seed and what was done to it. */
    public static final class Case {
        private final Seed seed;
        private final List<JsonMutation> json;
        private final List<ByteMutation> bytes;
        private final byte[] result;

        Case(Seed seed, List<JsonMutation> json, List<ByteMutation> bytes) {
            this.seed = seed;
            this.json = json;
            this.bytes = bytes;
            byte[] b = json.isEmpty() ? seed.bytes() : JsonMutation.applyAll(seed.bytes(), json);
            for (ByteMutation m : bytes) {
                b = m.apply(b);
            }
            this.result = b.length > MAX_BYTES ? Arrays.copyOf(b, MAX_BYTES) : b;
        }

        public byte[] bytes() {
            return result.clone();
        }

        public String text() {
            return new String(result, StandardCharsets.UTF_8);
        }

        public Seed seed() {
            return seed;
        }

        @Override
        public String toString() {
            String head = new String(result, 0, Math.min(result.length, 300), StandardCharsets.UTF_8)
                    .replace("\n", "\\n")
                    .replace("\r", "\\r")
                    .replace("\u0000", "\\0");
            return seed + " " + json + " " + bytes + " (" + result.length + " bytes: " + head + ")";
        }
    }

    /** A seed with the given mutations applied: JSON ones first, then byte-level ones. */
    public static Case mutate(Seed seed, List<JsonMutation> json, List<ByteMutation> bytes) {
        return new Case(seed, json, bytes);
    }

    /** Byte-level mutations of one of the seeds (none to six). */
    public static Arbitrary<Case> bytes(List<Seed> seeds) {
        return Combinators.combine(Arbitraries.of(seeds), byteMutation().list().ofMaxSize(6))
                .as((s, m) -> new Case(s, List.of(), m));
    }

    /** JSON mutations of one of the seeds (which must be JSON), sometimes followed by a byte-level one. */
    public static Arbitrary<Case> json(List<Seed> seeds) {
        Arbitrary<List<ByteMutation>> after = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, Arbitraries.just(List.<ByteMutation>of())),
                net.jqwik.api.Tuple.of(1, byteMutation().list().ofMinSize(1).ofMaxSize(2)));
        return Combinators.combine(
                        Arbitraries.of(seeds),
                        jsonMutation().list().ofMinSize(1).ofMaxSize(4),
                        after)
                .as(Case::new);
    }

    /** Either kind, half and half. */
    public static Arbitrary<Case> any(List<Seed> seeds) {
        return Arbitraries.oneOf(bytes(seeds), json(seeds));
    }

    /** Hostile strings, for inputs that are strings rather than documents (a header, a metadata value, an id). */
    public static Arbitrary<String> strings(List<String> real) {
        Arbitrary<String> mutated =
                bytes(real.stream().map(s -> Seed.of(s, s)).toList()).map(Case::text);
        return Arbitraries.oneOf(
                Arbitraries.of(real),
                mutated,
                Arbitraries.of(HOSTILE_TEXT),
                Arbitraries.strings().ofMaxLength(40));
    }

    // ------------------------------------------------------------------------------------------------ bytes

    private static final byte[] BYTES = {
        0,
        1,
        0x08,
        0x1b,
        0x1f,
        0x7f,
        (byte) 0x80,
        (byte) 0xbf,
        (byte) 0xc0,
        (byte) 0xc3,
        (byte) 0xe2,
        (byte) 0xed,
        (byte) 0xf0,
        (byte) 0xf4,
        (byte) 0xf8,
        (byte) 0xfe,
        (byte) 0xff,
        '"',
        '\'',
        '\\',
        '{',
        '}',
        '[',
        ']',
        ',',
        ':',
        '=',
        '\n',
        '\r',
        '\t',
        ' ',
        '#',
        '-',
        '+',
        '.',
        'e',
        'E',
        '0',
        '9',
        '/',
        '_'
    };

    private static final List<byte[]> SNIPPETS = List.of(
            raw(0),
            text("\\u0000"),
            text("\u0000"),
            text("\u001b[2J"),
            text("\r\n"),
            text("\u2028\u2029"),
            text("\u202e"),
            text("\uD83D\uDE00"),
            raw(0xc3, 0x28),
            raw(0xed, 0xa0, 0x80),
            raw(0xf0, 0x28, 0x8c, 0xbc),
            raw(0xf8, 0x88, 0x80, 0x80, 0x80),
            raw(0xff, 0xfe),
            raw(0x80),
            raw(0xc0, 0xaf),
            text("\\ud800"),
            text("\\udc00\\ud800"),
            text("1e999999"),
            text("-1e999999"),
            text("99999999999999999999999999999"),
            text("-9223372036854775809"),
            text("9223372036854775808"),
            text("2147483648"),
            text("-2147483649"),
            text("1" + "0".repeat(80)),
            text("0." + "0".repeat(400) + "1"),
            text("NaN"),
            text("-Infinity"),
            text("+Inf"),
            text("-0"),
            text("1.7976931348623157e309"),
            text("4.9e-325"),
            text("[".repeat(1100)),
            text("{\"a\":".repeat(600)),
            text("\"" + "a".repeat(70_000) + "\""),
            text("a".repeat(5000)),
            text("null"),
            text("true"),
            text("{}"),
            text("[]"),
            text("\"\""),
            text(","),
            text("}"),
            text("]"),
            text("\"id\":\"dup\","),
            text("# EOF\n"),
            text("# TYPE a counter\n"),
            text("# HELP a \\\\ \\n\n"),
            text("{le=\"+Inf\"}"),
            text("{\"x.y\"=\"1\"}"),
            text("a{b=\"c\"} 1 123\n"),
            text("\n\n"),
            text("0000-01-01T00:00:00Z"),
            text("+999999999-12-31T23:59:59Z"),
            text("%s%n%x"),
            text("${jndi:ldap://x}"),
            text("'; DROP TABLE event_log; --"),
            text("../../../../etc/passwd"));

    private static byte[] raw(int... v) {
        byte[] b = new byte[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = (byte) v[i];
        }
        return b;
    }

    private static byte[] text(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** What a byte-level mutation does. */
    public enum ByteOp {
        FLIP,
        SET,
        TRUNCATE,
        DELETE,
        DUPLICATE,
        INSERT,
        DELETE_LINE,
        DUPLICATE_LINE,
        SWAP_LINES
    }

    /**
     * One byte-level mutation.
     *
     * @param op      what it does
     * @param at      where, in millionths of the input's length
     * @param length  how many bytes a range covers
     * @param choice  which bit, byte or snippet
     */
    public record ByteMutation(ByteOp op, int at, int length, int choice) {

        byte[] apply(byte[] in) {
            int n = in.length;
            int p = (int) ((long) at * n / 1_000_000L);
            switch (op) {
                case FLIP -> {
                    if (n == 0) {
                        return in;
                    }
                    byte[] out = in.clone();
                    out[Math.min(p, n - 1)] ^= (byte) (1 << (choice % 8));
                    return out;
                }
                case SET -> {
                    if (n == 0) {
                        return new byte[] {BYTES[choice % BYTES.length]};
                    }
                    byte[] out = in.clone();
                    out[Math.min(p, n - 1)] = BYTES[choice % BYTES.length];
                    return out;
                }
                case TRUNCATE -> {
                    return Arrays.copyOf(in, p);
                }
                case DELETE -> {
                    int end = Math.min(n, p + length);
                    return concat(Arrays.copyOfRange(in, 0, p), Arrays.copyOfRange(in, end, n));
                }
                case DUPLICATE -> {
                    int end = Math.min(n, p + length);
                    return concat(Arrays.copyOfRange(in, 0, end), Arrays.copyOfRange(in, p, n));
                }
                case INSERT -> {
                    return concat(
                            Arrays.copyOfRange(in, 0, p),
                            SNIPPETS.get(choice % SNIPPETS.size()),
                            Arrays.copyOfRange(in, p, n));
                }
                default -> {
                    return lines(in);
                }
            }
        }

        private byte[] lines(byte[] in) {
            List<byte[]> lines = splitLines(in);
            if (lines.isEmpty()) {
                return in;
            }
            int i = Math.min(lines.size() - 1, (int) ((long) at * lines.size() / 1_000_000L));
            switch (op) {
                case DELETE_LINE -> lines.remove(i);
                case DUPLICATE_LINE -> {
                    for (int k = 0; k < 1 + choice % 3; k++) {
                        lines.add(i, lines.get(i));
                    }
                }
                default -> {
                    int j = (i + 1 + choice) % lines.size();
                    byte[] t = lines.get(i);
                    lines.set(i, lines.get(j));
                    lines.set(j, t);
                }
            }
            return concat(lines.toArray(byte[][]::new));
        }

        @Override
        public String toString() {
            return op.name().toLowerCase(Locale.ROOT) + "@" + at + "/" + length + "/" + choice;
        }
    }

    private static List<byte[]> splitLines(byte[] in) {
        List<byte[]> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < in.length; i++) {
            if (in[i] == '\n') {
                out.add(Arrays.copyOfRange(in, start, i + 1));
                start = i + 1;
            }
        }
        if (start < in.length) {
            out.add(Arrays.copyOfRange(in, start, in.length));
        }
        return out;
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] out = new byte[Math.min(n, MAX_BYTES)];
        int at = 0;
        for (byte[] p : parts) {
            int k = Math.min(p.length, out.length - at);
            System.arraycopy(p, 0, out, at, k);
            at += k;
            if (at == out.length) {
                break;
            }
        }
        return out;
    }

    /** One byte-level mutation. */
    public static Arbitrary<ByteMutation> byteMutation() {
        return Combinators.combine(
                        Arbitraries.of(ByteOp.values()),
                        Arbitraries.integers().between(0, 999_999),
                        Arbitraries.integers().between(1, 64),
                        Arbitraries.integers().between(0, 1_000))
                .as(ByteMutation::new);
    }

    // ------------------------------------------------------------------------------------------------ JSON

    private static final List<String> HOSTILE_TEXT = List.of(
            "",
            " ",
            "\t\n",
            "\u0000",
            "a\u0000b",
            "\u0001\u001f\u007f",
            "\u0085\u009f",
            "\u202e\u200b",
            "\uD83D\uDE00",
            "\uFFFD",
            "x".repeat(257),
            "x".repeat(1025),
            "x".repeat(5000),
            "x".repeat(70_000),
            "0000-01-01T00:00:00Z",
            "-999999999-01-01T00:00:00Z",
            "+999999999-12-31T23:59:59Z",
            "+1000000000-01-01T00:00:00Z",
            "2026-02-30T00:00:00Z",
            "2026-01-31T12:00Z",
            "2026-01-31T12:00:00+05",
            "2026-01-31T25:61:61Z",
            "2026-01-31T12:00:00.123456789123Z",
            "Tue, 09 Aug 2022 17:07:32 GMT",
            "31 Feb 2019 09:00:43 GMT",
            "Mon, 99 Xyz 20199 09:00:43 ZZZ",
            "1.0",
            "0.3",
            "1",
            "-1",
            "1e999",
            "NaN",
            "node.registered",
            "gpu.xid",
            "trainer.rendezvous",
            "TRUE",
            "FALSE",
            "FAILED",
            "UNHEALTHY",
            "SUCCEEDED",
            "WORKER",
            "AGENT",
            "Preempt",
            "Terminate",
            "Freeze",
            "Scheduled",
            "spot",
            "EC2",
            "scheduledChange",
            "aws:///us-east-1a/i-0abc",
            "azure:///virtualMachines",
            "gce://p/z",
            "a/b",
            "/",
            "-",
            ".",
            "ns/name/extra",
            "../../etc/passwd",
            "'; DROP TABLE event_log; --",
            "%s%n",
            "${jndi:ldap://x}",
            "The node 'h_1_0' has joined round 0 of the rendezvous 'r' as rank 0 in a world of size 1.",
            "The node 'h_1_0' has joined round 99999999999 of x as rank 2147483648 in a world of size -1",
            "{\"message\":{\"message\":\"x\",\"errorCode\":99999999999}}",
            "{\"run_id\":",
            "[1,2,3]");

    private static final List<JsonNode> HOSTILE_VALUES = hostileValues();

    private static List<JsonNode> hostileValues() {
        List<JsonNode> v = new ArrayList<>();
        HOSTILE_TEXT.forEach(t -> v.add(F.textNode(t)));
        for (long l : new long[] {
            0,
            1,
            -1,
            7,
            1023,
            1024,
            100_000,
            Integer.MAX_VALUE,
            Integer.MIN_VALUE,
            Integer.MAX_VALUE + 1L,
            Long.MAX_VALUE,
            Long.MIN_VALUE,
            99_999_999_999L,
            100_000_000_000L
        }) {
            v.add(F.numberNode(l));
        }
        v.add(F.numberNode(BigInteger.TWO.pow(64)));
        v.add(F.numberNode(BigInteger.TEN.pow(60)));
        for (double d : new double[] {0.5, -0.0, 1.5, 1e308, -1e308, 4.9e-324, 1e10, 99.999, 100.0001}) {
            v.add(F.numberNode(d));
        }
        v.add(F.numberNode(new java.math.BigDecimal("1e400")));
        v.add(F.booleanNode(true));
        v.add(F.booleanNode(false));
        v.add(F.nullNode());
        v.add(F.arrayNode());
        v.add(F.objectNode());
        v.add(F.arrayNode().add(1).add("x").addNull());
        v.add(F.objectNode().put("a", 1).put("", "\u0000"));
        for (int depth : new int[] {15, 17, 31, 33, 200}) {
            v.add(nested(depth, depth % 2 == 0));
        }
        return List.copyOf(v);
    }

    private static JsonNode nested(int depth, boolean arrays) {
        JsonNode n = F.numberNode(1);
        for (int i = 0; i < depth; i++) {
            n = arrays ? F.arrayNode().add(n) : F.objectNode().set("a", n);
        }
        return n;
    }

    /** What a JSON mutation does. */
    public enum JsonOp {
        DELETE,
        REPLACE,
        DUPLICATE_KEY,
        RENAME_KEY,
        WRAP,
        DUPLICATE_ELEMENT,
        DEEPEN
    }

    /**
     * One JSON mutation.
     *
     * @param op      what it does
     * @param node    which node (an index into the document's nodes in document order, modulo their number)
     * @param choice  which hostile value or renaming
     */
    public record JsonMutation(JsonOp op, int node, int choice) {

        static byte[] applyAll(byte[] json, List<JsonMutation> mutations) {
            JsonNode root;
            try {
                root = MAPPER.readTree(json);
            } catch (IOException e) {
                return json;
            }
            if (root == null || !root.isContainerNode()) {
                return json;
            }
            Writer w = new Writer();
            for (JsonMutation m : mutations) {
                root = m.apply(root, w);
            }
            StringBuilder out = new StringBuilder();
            w.write(root, out);
            return out.toString().getBytes(StandardCharsets.UTF_8);
        }

        private JsonNode apply(JsonNode root, Writer w) {
            List<Place> places = new ArrayList<>();
            walk(null, null, -1, 0, root, places);
            Place p = places.get(node % places.size());
            JsonNode hostile = HOSTILE_VALUES.get(choice % HOSTILE_VALUES.size());
            switch (op) {
                case DELETE -> p.remove();
                case REPLACE -> p.set(hostile.deepCopy());
                case DUPLICATE_KEY -> {
                    if (p.parent instanceof ObjectNode o) {
                        // A second member of the same name, before or after the first, with a copy or a hostile value.
                        w.extra
                                .computeIfAbsent(o, k -> new ArrayList<>())
                                .add(Map.entry(p.key, choice % 2 == 0 ? p.value.deepCopy() : hostile.deepCopy()));
                    }
                }
                case RENAME_KEY -> {
                    if (p.parent instanceof ObjectNode o) {
                        String[] names = {
                            p.key.toUpperCase(Locale.ROOT),
                            p.key + ".x",
                            "",
                            p.key + "\u0000",
                            " " + p.key,
                            p.key.substring(0, p.key.length() / 2),
                            "x".repeat(300)
                        };
                        o.remove(p.key);
                        o.set(names[choice % names.length], p.value);
                    }
                }
                case WRAP ->
                    p.set(
                            choice % 2 == 0
                                    ? F.arrayNode().add(p.value)
                                    : F.objectNode().set("value", p.value));
                case DUPLICATE_ELEMENT -> {
                    if (p.parent instanceof ArrayNode a) {
                        for (int i = 0; i < 1 + choice % 50; i++) {
                            a.add(p.value.deepCopy());
                        }
                    }
                }
                // Deep, but not so deep that writing it could overflow this test's stack.
                case DEEPEN ->
                    p.set(nested(Math.max(1, Math.min(10 + choice % MAX_DEPTH, MAX_DEPTH - p.depth)), choice % 2 == 0));
                default -> throw new IllegalStateException(op.name());
            }
            return p.parent == null ? p.root() : root;
        }

        @Override
        public String toString() {
            return op.name().toLowerCase(Locale.ROOT) + "#" + node + "/" + choice;
        }
    }

    /** One JSON mutation. */
    public static Arbitrary<JsonMutation> jsonMutation() {
        return Combinators.combine(
                        Arbitraries.of(JsonOp.values()),
                        Arbitraries.integers().between(0, 100_000),
                        Arbitraries.integers().between(0, 10_000))
                .as(JsonMutation::new);
    }

    /** Where a node sits: its parent and its key or index (the root has no parent). */
    private static final class Place {
        final JsonNode parent;
        final String key;
        final int index;
        final int depth;
        JsonNode value;

        Place(JsonNode parent, String key, int index, int depth, JsonNode value) {
            this.parent = parent;
            this.key = key;
            this.index = index;
            this.depth = depth;
            this.value = value;
        }

        void remove() {
            if (parent instanceof ObjectNode o) {
                o.remove(key);
            } else if (parent instanceof ArrayNode a) {
                a.remove(index);
            } else {
                value = F.objectNode();
            }
        }

        void set(JsonNode v) {
            if (parent instanceof ObjectNode o) {
                o.set(key, v);
            } else if (parent instanceof ArrayNode a) {
                a.set(index, v);
            } else {
                value = v;
            }
        }

        JsonNode root() {
            return value;
        }
    }

    private static void walk(JsonNode parent, String key, int index, int depth, JsonNode node, List<Place> out) {
        out.add(new Place(parent, key, index, depth, node));
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            for (String n : names) {
                walk(node, n, -1, depth + 1, node.get(n), out);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node, null, i, depth + 1, node.get(i), out);
            }
        }
    }

    /** Writes a tree as JSON text, with the duplicated members the mutations asked for (Jackson would not). */
    private static final class Writer {
        final Map<ObjectNode, List<Map.Entry<String, JsonNode>>> extra = new IdentityHashMap<>();

        void write(JsonNode n, StringBuilder out) {
            if (n.isObject()) {
                out.append('{');
                boolean first = true;
                for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    first = member(e.getKey(), e.getValue(), first, out);
                }
                for (Map.Entry<String, JsonNode> e : extra.getOrDefault(n, List.of())) {
                    first = member(e.getKey(), e.getValue(), first, out);
                }
                out.append('}');
            } else if (n.isArray()) {
                out.append('[');
                for (int i = 0; i < n.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(n.get(i), out);
                }
                out.append(']');
            } else {
                out.append(n);
            }
        }

        private boolean member(String key, JsonNode value, boolean first, StringBuilder out) {
            if (!first) {
                out.append(',');
            }
            out.append(F.textNode(key)).append(':');
            write(value, out);
            return false;
        }
    }
}
