package io.lifeline.security.store;

import io.agroal.api.AgroalDataSource;
import io.lifeline.eventlog.Jdbc;
import io.lifeline.security.identity.Caller;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.jboss.logging.Logger;

/**
 * Which agent may take and answer a job's commands: the one that claimed them. An agent presents a key of its own
 * (header {@value #KEY_HEADER}, made once per launch) on every poll and acknowledgement; its first poll claims the
 * job for that key, every poll keeps the claim, and while it holds, a poll or an acknowledgement with another key (or
 * none), whatever its token, is refused with the reason and written to the security audit. A token that may send a
 * namespace's events is no longer enough to answer its jobs' commands: a second agent, a connector or another team's
 * workload with a token over the namespace cannot take the commands nor reject them in the trainers' name.
 *
 * <p>The claim lapses when its agent stops polling (the poll's wait plus a grace), so a relaunched job's new agent
 * takes over; when the poll's connection closes before it is answered (the agent's process ended: torchrun restarting
 * the workers moves rank 0, and the agent that polls, to another node and key), it lapses a short grace after the
 * close ({@link #disconnected}). Until another key claims it, the lapsed holder's acknowledgements still count. An agent releases its
 * claim when it exits; an operator of the namespace may release any (the agent that claimed first, if it was not the
 * job's, is then refused at its next poll). In PostgreSQL (table {@code agent_claim}, only the SHA-256 of each key),
 * so every replica answers alike.
 */
@ApplicationScoped
public class AgentClaims {

    /** The request header an agent sends its key in. */
    public static final String KEY_HEADER = "Lifeline-Agent-Key";
    /** At least 32 characters (a random 192 bits in base64 or hex), as a token's secret. */
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9._~+/=-]{32,256}");

    /**
     * The claim, a conditional upsert: the row changes only for the same key or a lapsed claim, and answers only then
     * (a claim held by another key answers no row).
     */
    private static final String CLAIM =
            "INSERT INTO agent_claim AS a (job, key_sha256, holder, claimed_at, seen_at, expires_at, poll_id)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (job) DO UPDATE SET key_sha256 = EXCLUDED.key_sha256,"
                    + " holder = EXCLUDED.holder, poll_id = EXCLUDED.poll_id,"
                    + " claimed_at = CASE WHEN a.key_sha256 = EXCLUDED.key_sha256 THEN a.claimed_at ELSE EXCLUDED.claimed_at END,"
                    + " seen_at = EXCLUDED.seen_at,"
                    + " expires_at = CASE WHEN a.key_sha256 = EXCLUDED.key_sha256"
                    + " THEN GREATEST(a.expires_at, EXCLUDED.expires_at) ELSE EXCLUDED.expires_at END"
                    + " WHERE a.key_sha256 = EXCLUDED.key_sha256 OR a.expires_at <= EXCLUDED.seen_at"
                    + " RETURNING claimed_at, expires_at";

    private static final Duration AUDIT_EVERY = Duration.ofMinutes(1);
    private static final int AUDIT_MEMORY = 10_000;
    private static final Logger LOG = Logger.getLogger(AgentClaims.class);

    /**
     * A job's claim.
     *
     * @param fresh  whether this call claimed the job (it was free, lapsed or held by the same key for the first time)
     * @param poll   the poll this call kept it for (see {@link #disconnected}), null when read back
     */
    public record Claim(String job, String holder, Instant claimedAt, Instant expiresAt, boolean fresh, String poll) {}

    /** Where claims and refusals are recorded (the security audit). */
    @FunctionalInterface
    public interface Audit {
        void record(Instant time, String what, String actor, String tokenId, String detail);
    }

    private final Jdbc jdbc;
    private final Audit audit;
    private final Clock clock;
    /** When each refusal was last audited, so a refused agent that retries does not write a row a poll. */
    private final Map<String, Instant> audited = new ConcurrentHashMap<>();

    @Inject
    AgentClaims(AgroalDataSource dataSource, SecurityStore audit, Clock clock) {
        this(dataSource, audit::audit, clock);
    }

    /** Claims in {@code dataSource}, recorded to {@code audit} (tests and tools give their own). */
    public AgentClaims(DataSource dataSource, Audit audit, Clock clock) {
        this.jdbc = new Jdbc(dataSource, "the agent claims");
        this.audit = audit;
        this.clock = clock;
    }

    /**
     * The digest a key is stored and compared as.
     *
     * @throws IllegalArgumentException when the key is missing or not a key (a 400 naming the header)
     */
    public static String digest(String key) {
        if (key == null || key.isBlank()) {
            throw new IllegalArgumentException(KEY_HEADER + ": required: the agent's own key (at least 32 of "
                    + "A-Z a-z 0-9 . _ ~ + / = -, made once per launch), which binds the job's commands to this agent");
        }
        if (!KEY.matcher(key).matches()) {
            throw new IllegalArgumentException(KEY_HEADER + ": 32 to 256 of A-Z a-z 0-9 . _ ~ + / = -");
        }
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Claims the job's commands for the key with digest {@code keyDigest}, or keeps its claim, until {@code holdFor}
     * from now (never shortening a claim the same key holds longer).
     *
     * @throws ClaimHeldException when another key holds the job (audited)
     */
    public Claim claim(String job, String keyDigest, Caller caller, Duration holdFor) {
        Instant now = clock.instant();
        Instant until = now.plus(holdFor);
        String poll = java.util.UUID.randomUUID().toString();
        Claim held = jdbc.withConnection(c -> {
            Optional<Claim> mine = Jdbc.one(
                    c,
                    CLAIM,
                    rs -> new Claim(
                            job,
                            caller.actor(),
                            rs.getTimestamp(1).toInstant(),
                            rs.getTimestamp(2).toInstant(),
                            false,
                            poll),
                    job,
                    keyDigest,
                    caller.actor(),
                    now,
                    now,
                    until,
                    poll);
            return mine.isPresent() ? mine.get() : find(c, job);
        });
        if (held != null && poll.equals(held.poll())) {
            boolean fresh = held.claimedAt().equals(now);
            if (fresh) {
                record("agent.claimed", caller, job, "the commands of " + job + " are claimed by this agent's key");
            }
            return new Claim(job, held.holder(), held.claimedAt(), held.expiresAt(), fresh, poll);
        }
        if (held == null) {
            // Released between the two statements: the next poll claims it.
            throw new ClaimHeldException("the claim on the commands of " + job + " changed meanwhile; poll again", 1);
        }
        long retry = Math.max(1, Duration.between(now, held.expiresAt()).toSeconds() + 1);
        String why = "the commands of " + job + " are claimed by another agent (key presented by " + held.holder()
                + " since " + held.claimedAt() + "); only that agent may take and answer them until it stops "
                + "polling for its grace (at " + held.expiresAt() + ") or an operator releases the claim";
        throttled("agent.claim_refused", caller, job, why);
        throw new ClaimHeldException(why, retry);
    }

    /**
     * The poll {@code claim} kept the job's claim for ended without an answer (its connection closed): the claim now
     * lapses {@code grace} from now, unless a later poll of the same key kept it since.
     *
     * @return whether the claim was shortened
     */
    public boolean disconnected(Claim claim, Duration grace) {
        Instant now = clock.instant();
        return jdbc.update(
                        "UPDATE agent_claim SET expires_at = LEAST(expires_at, ?) WHERE job = ? AND poll_id = ?",
                        now.plus(grace),
                        claim.job(),
                        claim.poll())
                > 0;
    }

    /** Whether the key with digest {@code keyDigest} holds the job's claim (a lapsed claim not taken over counts). */
    public boolean holds(String job, String keyDigest) {
        return keyDigest != null
                && keyDigest.equals(holders(java.util.List.of(job)).get(job));
    }

    /** The digests of the keys holding the claims of {@code jobs} (lapsed ones included); jobs never claimed are absent. */
    public Map<String, String> holders(Collection<String> jobs) {
        Map<String, String> out = new HashMap<>();
        if (jobs.isEmpty()) {
            return out;
        }
        jdbc.withConnection(c -> Jdbc.list(
                c,
                "SELECT job, key_sha256 FROM agent_claim WHERE job = ANY (?)",
                rs -> out.put(rs.getString(1), rs.getString(2)),
                c.createArrayOf("text", jobs.toArray())));
        return out;
    }

    /**
     * Releases the job's claim: the holder's own (its key's digest given), or any (null: an operator, checked by the
     * caller). Audited.
     *
     * @return whether a claim was released
     */
    public boolean release(String job, String keyDigest, Caller caller) {
        String sql = keyDigest == null
                ? "DELETE FROM agent_claim WHERE job = ?"
                : "DELETE FROM agent_claim WHERE job = ? AND key_sha256 = ?";
        boolean released = (keyDigest == null ? jdbc.update(sql, job) : jdbc.update(sql, job, keyDigest)) > 0;
        if (released) {
            record(
                    "agent.claim_released",
                    caller,
                    job,
                    keyDigest == null
                            ? "the claim on the commands of " + job + " released by an operator"
                            : "the agent released its claim on the commands of " + job);
        }
        return released;
    }

    /** Writes a refused acknowledgement to the security audit (once a minute per job, caller and kind at most). */
    public void refused(String what, Caller caller, String job, String why) {
        throttled(what, caller, job, why);
    }

    /** Deletes claims that lapsed before {@code before} (their jobs long without an agent). */
    public int deleteLapsed(Instant before) {
        return jdbc.update("DELETE FROM agent_claim WHERE expires_at < ?", before);
    }

    private static Claim find(Connection c, String job) throws SQLException {
        return Jdbc.one(
                        c,
                        "SELECT holder, claimed_at, expires_at FROM agent_claim WHERE job = ?",
                        rs -> new Claim(
                                job,
                                rs.getString(1),
                                rs.getTimestamp(2).toInstant(),
                                rs.getTimestamp(3).toInstant(),
                                false,
                                null),
                        job)
                .orElse(null);
    }

    private void throttled(String what, Caller caller, String job, String why) {
        Instant now = clock.instant();
        String key = what + '\n' + job + '\n' + caller.actor();
        Instant last = audited.get(key);
        if (last != null && now.isBefore(last.plus(AUDIT_EVERY))) {
            return;
        }
        if (audited.size() >= AUDIT_MEMORY) {
            audited.clear();
        }
        audited.put(key, now);
        record(what, caller, job, why);
    }

    private void record(String what, Caller caller, String job, String detail) {
        try {
            audit.record(clock.instant(), what, caller.actor(), caller.tokenId(), detail);
        } catch (RuntimeException e) {
            // The decision stands without its audit row; say so where operators look.
            LOG.warnf("Not audited (%s on %s by %s): %s", what, job, caller.actor(), e.toString());
        }
    }
}
