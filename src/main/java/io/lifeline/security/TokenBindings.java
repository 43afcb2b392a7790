package io.lifeline.security;

import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The bindings of an ingest token, checked when it is created: the nodes a node agent's token may send node and GPU
 * events of, and the CloudEvents sources a connector's token may send. Both lists are bounded, so that a token's
 * check stays a set lookup and its description a short line.
 */
final class TokenBindings {

    /** Most nodes one token is bound to: a node agent's token names its node; a node group's agent a few hundred. */
    static final int MAX_NODES = 1000;

    static final int MAX_SOURCES = 100;
    private static final int MAX_SOURCE_LENGTH = 500;
    /** A Kubernetes node name: a DNS subdomain (letters, digits, '-', '.'), at most 253 characters. */
    private static final Pattern NODE = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9._]{0,251}[A-Za-z0-9])?");

    private TokenBindings() {}

    /** The nodes, sorted and without repeats; throws naming the field. */
    static List<String> nodes(List<String> nodes) {
        if (nodes == null) {
            return List.of();
        }
        if (nodes.size() > MAX_NODES) {
            throw new IllegalArgumentException("nodes: at most " + MAX_NODES + " per token, got " + nodes.size());
        }
        TreeSet<String> out = new TreeSet<>();
        for (String n : nodes) {
            String v = n == null ? null : n.strip();
            if (v == null || !NODE.matcher(v).matches()) {
                throw new IllegalArgumentException(
                        "nodes: '" + clip(n) + "' is not a node name (letters, digits, '-'," + " '.', at most 253)");
            }
            out.add(v);
        }
        return List.copyOf(out);
    }

    /** The sources, sorted and without repeats; throws naming the field. */
    static List<String> sources(List<String> sources) {
        if (sources == null) {
            return List.of();
        }
        if (sources.size() > MAX_SOURCES) {
            throw new IllegalArgumentException("sources: at most " + MAX_SOURCES + " per token, got " + sources.size());
        }
        TreeSet<String> out = new TreeSet<>();
        for (String s : sources) {
            String v = s == null ? null : s.strip();
            if (v == null
                    || v.isEmpty()
                    || v.length() > MAX_SOURCE_LENGTH
                    || v.chars().anyMatch(c -> Character.isISOControl(c) || Character.isWhitespace(c))) {
                throw new IllegalArgumentException("sources: '" + clip(s) + "' is not a CloudEvents source (1 to "
                        + MAX_SOURCE_LENGTH + " characters, no spaces or control characters)");
            }
            out.add(v);
        }
        return List.copyOf(out);
    }

    /** A list as an answer or a log names it: the first few, then how many in all. */
    static String shown(java.util.Collection<String> values) {
        if (values.size() <= 5) {
            return values.toString();
        }
        return "[" + String.join(", ", values.stream().limit(5).toList()) + ", … (" + values.size() + " in all)]";
    }

    static String clip(String s) {
        if (s == null) {
            return "null";
        }
        String c = s.codePoints()
                .map(cp -> Character.isISOControl(cp) ? '?' : cp)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString();
        return c.length() > 80 ? c.substring(0, 80) + "…" : c;
    }
}
