package io.lifeline.domain.replay;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * One job of the Philly trace (Jeon et al., ATC'19), as both its {@code cluster_job_log} JSON and the derived
 * multi-attempt CSV describe it. Philly writes times as {@code yyyy-MM-dd HH:mm:ss}, read here as UTC.
 *
 * @param jobId      the YARN application id
 * @param status     the final status ({@code Pass}, {@code Failed}, {@code Killed}), or null while running
 * @param vc         the virtual cluster, or null
 * @param user       the (hashed) user, or null
 * @param submitted  when the job was submitted
 * @param attempts   its attempts in order
 */
public record PhillyJob(
        String jobId, String status, String vc, String user, Instant submitted, List<Attempt> attempts) {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    public PhillyJob {
        attempts = List.copyOf(attempts);
    }

    /**
     * One attempt: the machines it ran on and when.
     *
     * @param start     when it started
     * @param end       when it ended, or null (still running at the end of the trace)
     * @param machines  the machines with the GPUs it held on each
     * @param cause     why it ended, as the trace says (the public trace does not record it), or null
     */
    public record Attempt(Instant start, Instant end, List<Machine> machines, String cause) {

        public Attempt {
            machines = List.copyOf(machines);
        }

        /** GPUs the attempt held. */
        public int gpus() {
            return machines.stream().mapToInt(Machine::gpus).sum();
        }
    }

    /**
     * A machine of an attempt.
     *
     * @param ip    its name in the trace ({@code m47}), or null when the trace does not say
     * @param gpus  GPUs held on it
     */
    public record Machine(String ip, int gpus) {}

    /**
     * A Philly time ({@code 2017-10-07 01:12:09}), as UTC.
     *
     * @throws IllegalArgumentException with the reason when it is not one
     */
    public static Instant time(String field, String s) {
        if (s == null || s.isBlank() || s.equalsIgnoreCase("None")) {
            throw new IllegalArgumentException(field + " is missing");
        }
        try {
            return LocalDateTime.parse(s.trim(), TIME).toInstant(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(field + " is not a time of the form yyyy-MM-dd HH:mm:ss: '" + s + "'");
        }
    }
}
