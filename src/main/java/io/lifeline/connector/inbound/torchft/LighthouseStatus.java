package io.lifeline.connector.inbound.torchft;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What TorchFT's Lighthouse says of its quorum on {@code GET /status}. The Lighthouse has no machine-readable
 * endpoint: {@code /status} is an HTML fragment rendered from {@code templates/status.html} (pytorch/torchft,
 * {@code src/lighthouse.rs} {@code get_status}), and its gRPC {@code LighthouseService} only joins a quorum
 * ({@code Quorum} enrols the caller as a participant) or heartbeats. So this reads the fragment's fixed labels: {@code
 * Current quorum_id:}, {@code Next quorum status:}, {@code Previous quorum id:} and, per member of the last quorum,
 * its replica id in {@code <b>}, {@code Step:}, {@code Manager:}, {@code TCPStore:} and {@code World size:}. A page
 * without them (another version's template) reads as unknown, never as an empty quorum.
 *
 * @param quorumId   the Lighthouse's current quorum id (0 before any quorum)
 * @param status     why the next quorum is or is not ready, in the Lighthouse's words, or null
 * @param quorum     the last quorum formed, or null before the first
 */
public record LighthouseStatus(long quorumId, String status, Quorum quorum) {

    /**
     * A quorum the Lighthouse formed.
     *
     * @param id       its quorum id
     * @param members  its replica groups, in the Lighthouse's order (by replica id)
     */
    public record Quorum(long id, List<Member> members) {
        public Quorum {
            members = List.copyOf(members);
        }

        /** The replica ids, in order: two quorums with the same ids have the same membership. */
        public List<String> replicaIds() {
            return members.stream().map(Member::replicaId).toList();
        }
    }

    /**
     * One replica group in a quorum.
     *
     * @param replicaId  its replica id (TorchFT's manager makes it from {@code REPLICA_GROUP_ID} and a uuid)
     * @param step       the step it reported
     * @param manager    its manager's address, {@code http://<hostname>:<port>}
     * @param store      its TCPStore address
     * @param worldSize  ranks in the group
     */
    public record Member(String replicaId, long step, String manager, String store, int worldSize) {

        /** The host of its manager's address (the replica's hostname: a pod's name, or a machine's), or null. */
        public String host() {
            try {
                String h = URI.create(manager).getHost();
                if (h != null) {
                    return h;
                }
            } catch (IllegalArgumentException e) {
                // Not a URI: the address may be a bare host:port.
            }
            int colon = manager.lastIndexOf(':');
            String h = colon > 0 ? manager.substring(0, colon) : manager;
            return h.isBlank() ? null : h;
        }
    }

    private static final Pattern CURRENT = Pattern.compile("Current quorum_id:\\s*(-?\\d+)");
    private static final Pattern NEXT = Pattern.compile("Next quorum status:\\s*([^\\n<]*)");
    private static final Pattern PREVIOUS = Pattern.compile("Previous quorum id:\\s*(-?\\d+)");
    private static final Pattern MEMBER = Pattern.compile("<b>\\s*([^<]*?)\\s*</b>\\s*<br\\s*/?>\\s*"
            + "Step:\\s*(-?\\d+)\\s*<br\\s*/?>\\s*"
            + "Manager:\\s*([^<\\s]*)\\s*<br\\s*/?>\\s*"
            + "TCPStore:\\s*([^<\\s]*)\\s*<br\\s*/?>\\s*"
            + "World size:\\s*(\\d+)");

    /**
     * The status in a {@code /status} page.
     *
     * @throws IllegalArgumentException when the page is not one (no {@code Current quorum_id:})
     */
    public static LighthouseStatus parse(String html) {
        Matcher current = CURRENT.matcher(html);
        if (!current.find()) {
            throw new IllegalArgumentException("not a TorchFT Lighthouse status page: no \"Current quorum_id:\"");
        }
        long quorumId = Long.parseLong(current.group(1));
        Matcher next = NEXT.matcher(html);
        String status = next.find() ? unescape(next.group(1).trim()) : null;
        Matcher previous = PREVIOUS.matcher(html);
        if (!previous.find()) {
            return new LighthouseStatus(quorumId, status, null);
        }
        long id = Long.parseLong(previous.group(1));
        // Members come after the quorum's header and before the heartbeats.
        int end = html.indexOf("<h2>Heartbeats</h2>", previous.end());
        String block = html.substring(previous.end(), end < 0 ? html.length() : end);
        List<Member> members = new ArrayList<>();
        Matcher m = MEMBER.matcher(block);
        while (m.find()) {
            members.add(new Member(
                    unescape(m.group(1)),
                    Long.parseLong(m.group(2)),
                    unescape(m.group(3)),
                    unescape(m.group(4)),
                    Integer.parseInt(m.group(5))));
        }
        return new LighthouseStatus(quorumId, status, new Quorum(id, members));
    }

    /** Askama's HTML escaping undone (the characters it escapes, named or numeric, and {@code /} as older ones did). */
    static String unescape(String s) {
        if (s.indexOf('&') < 0) {
            return s;
        }
        return s.replace("&#x2f;", "/")
                .replace("&#47;", "/")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#34;", "\"")
                .replace("&#x27;", "'")
                .replace("&#39;", "'")
                .replace("&amp;", "&");
    }
}
