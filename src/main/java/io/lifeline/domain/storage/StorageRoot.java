package io.lifeline.domain.storage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The storage target a checkpoint location belongs to. The first rule that applies decides:
 * <ol>
 *   <li>the longest root the operator named that the location is equal to or below;</li>
 *   <li>a location with a scheme and a host ({@code s3://bucket/...}, {@code gs://bucket/...}): the scheme and the host
 *       ({@code s3://bucket}): a bucket is the unit of quota and throughput, while its first folder is often one job's
 *       own;</li>
 *   <li>a path ({@code file://} stripped): its first segment ({@code /fsx}), or its first two under {@code /mnt} and
 *       {@code /media}, where file systems are conventionally mounted ({@code /mnt/shared}).</li>
 * </ol>
 * A checkpoint on each node's own disk under the same path counts toward one target: name the node's disks apart
 * with their own roots when that matters.
 */
public final class StorageRoot {

    private final List<String> roots;

    /** @param roots named roots (paths or URIs); blank ones are ignored, trailing slashes dropped */
    public StorageRoot(List<String> roots) {
        List<String> clean = new ArrayList<>();
        for (String r : roots) {
            String n = normalize(r);
            if (n != null) {
                clean.add(n);
            }
        }
        clean.sort(Comparator.comparingInt(String::length).reversed());
        this.roots = List.copyOf(clean);
    }

    /** The target of a location, or null without one. */
    public String of(String uri) {
        String u = normalize(uri);
        if (u == null) {
            return null;
        }
        for (String r : roots) {
            if (u.equals(r) || u.startsWith(r.endsWith("/") ? r : r + "/")) {
                return r;
            }
        }
        int colon = u.indexOf("://");
        if (colon > 0) {
            int slash = u.indexOf('/', colon + 3);
            return slash < 0 ? u : u.substring(0, slash);
        }
        boolean absolute = u.startsWith("/");
        String[] parts = (absolute ? u.substring(1) : u).split("/", -1);
        String first = parts[0];
        boolean mountParent =
                absolute && (first.equals("mnt") || first.equals("media")) && parts.length > 1 && !parts[1].isEmpty();
        String root = mountParent ? first + "/" + parts[1] : first;
        return absolute ? "/" + root : root;
    }

    /** Trimmed, {@code file://} stripped, scheme lower-cased, without trailing slashes; null when blank. */
    private static String normalize(String s) {
        if (s == null || s.isBlank()) {
            return null;
        }
        String t = s.trim();
        int colon = t.indexOf("://");
        if (colon > 0) {
            String scheme = t.substring(0, colon).toLowerCase(Locale.ROOT);
            t = scheme.equals("file") ? t.substring(colon + 3) : scheme + t.substring(colon);
        }
        while (t.length() > 1 && t.endsWith("/")) {
            t = t.substring(0, t.length() - 1);
        }
        return t.isEmpty() ? null : t;
    }
}
