package io.lifeline.domain.event;

import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** Payloads of {@code job.*} events; the subject is the job ({@code namespace/name}). */
public sealed interface JobData extends EventData {

    /**
     * A training job was submitted.
     *
     * @param namespace                  Kubernetes namespace (or team)
     * @param owner                      who owns it, may be null
     * @param priorityClass              priority class, may be null
     * @param elastic                    elastic policy
     * @param gpusPerNode                GPUs the job uses on each node
     * @param checkpointIntervalSeconds  configured checkpoint interval, may be null
     * @param healsItself                how the job heals its own replica failures (TorchFT), or null
     */
    record Submitted(
            String namespace,
            String owner,
            String priorityClass,
            ElasticPolicy elastic,
            int gpusPerNode,
            Long checkpointIntervalSeconds,
            SelfHealing healsItself)
            implements JobData {

        /** A job that does not heal itself. */
        public Submitted(
                String namespace,
                String owner,
                String priorityClass,
                ElasticPolicy elastic,
                int gpusPerNode,
                Long checkpointIntervalSeconds) {
            this(namespace, owner, priorityClass, elastic, gpusPerNode, checkpointIntervalSeconds, null);
        }
    }

    /**
     * A job that heals its own replica failures: a failed replica group is dropped from the job's quorum and rejoins
     * when it is back, without the job's other replicas restarting. Lifeline leaves such failures to it.
     *
     * @param runtime   what heals it: {@code torchft}
     * @param endpoint  where its coordinator answers (TorchFT's Lighthouse, from {@code TORCHFT_LIGHTHOUSE}), or null
     */
    record SelfHealing(String runtime, String endpoint) {

        /** TorchFT (pytorch/torchft): replica groups in a quorum its Lighthouse forms. */
        public static final String TORCHFT = "torchft";
    }

    /** Some settings of the job changed; null fields are unchanged. */
    record Updated(String priorityClass, ElasticPolicy elastic, Integer gpusPerNode, Long checkpointIntervalSeconds)
            implements JobData {}

    /**
     * Lifeline (or another detector) suspects the job hung: its workers are alive and report, but none made progress
     * for longer than the job's threshold for what they were doing. Written into the event log by the detector so that
     * every replica, and every rebuild, opens the same incident.
     *
     * @param kind              what stalled: {@code training}, {@code save}, {@code phase} or {@code startup}
     * @param since             the last progress (when the hang began)
     * @param stalledSeconds    how long nothing moved when it was suspected
     * @param thresholdSeconds  the threshold it passed
     * @param basis             how the threshold was earned (the job's step times, a floor...)
     * @param phase             the phase the ranks were in, or null
     * @param suspects          the ranks that stopped first, or that differ from the others, with why
     * @param evidence          what else was seen (GPU telemetry, silent agents), one line each
     */
    record HangSuspected(
            String kind,
            Instant since,
            double stalledSeconds,
            double thresholdSeconds,
            String basis,
            String phase,
            List<HangSuspect> suspects,
            List<String> evidence)
            implements JobData {
        public HangSuspected {
            suspects = List.copyOf(suspects);
            evidence = List.copyOf(evidence);
        }
    }

    /**
     * A rank a hang points at.
     *
     * @param rank      global rank
     * @param node      its node, or null
     * @param gpu       its GPU (index on the node, or UUID), or null
     * @param lastStep  the step it reached, or null
     * @param why       why it is suspected
     */
    record HangSuspect(int rank, String node, String gpu, Long lastStep, String why) {}

    /**
     * The job's controller restarted it (JobSet recreated its Jobs, or restarted its pods in place): what the
     * controller counted, not what the pods showed.
     *
     * @param by                who counted it ({@code jobset})
     * @param kind              {@code recreate} (all Jobs recreated: {@code status.restarts}) or {@code in-place}
     *                          ({@code status.currentInPlaceRestartAttempt})
     * @param attempt           the controller's counter after the restart
     * @param previous          the counter before it as last seen, or null on first sight
     * @param countsTowardsMax  the restarts that count towards {@code maxRestarts} ({@code restartsCountTowardsMax}),
     *                          or null when not said
     * @param maxRestarts       the limit ({@code spec.failurePolicy.maxRestarts}), or null
     * @param reason            why, as the controller said it (its restarting condition), or null
     */
    record Restarted(
            String by,
            String kind,
            int attempt,
            Integer previous,
            Integer countsTowardsMax,
            Integer maxRestarts,
            String reason)
            implements JobData {

        /** What an attempt started by this restart says of its start. */
        public String describe() {
            StringBuilder b = new StringBuilder(by.equals("jobset") ? "JobSet" : by);
            b.append("in-place".equals(kind) ? " in-place restart attempt " : " restart ")
                    .append(attempt);
            if (countsTowardsMax != null && maxRestarts != null) {
                b.append(" (")
                        .append(countsTowardsMax)
                        .append(" of maxRestarts ")
                        .append(maxRestarts)
                        .append(')');
            }
            if (reason != null && !reason.isBlank()) {
                b.append(": ").append(reason);
            }
            return b.toString();
        }
    }

    /** The job ended. */
    record Finished(Outcome outcome, String reason) implements JobData {}

    /** How a job ended. */
    enum Outcome {
        SUCCEEDED,
        FAILED,
        CANCELLED;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Lifeline's recovery decided a remedy for an incident, before doing anything. Written into the event log by the
     * leader only (producers cannot send it), so that every replica and every rebuild holds the same advice.
     *
     * @param incident      the incident it answers
     * @param rung          1 for the first remedy, one more per escalation
     * @param remedy        {@code restart-in-place}, {@code replace-failed-pods}, {@code restart-excluding-node},
     *                      {@code shrink-to-survivors} or {@code stop-and-page}
     * @param node          the node it takes out, or null
     * @param rule          the rule that chose it, or {@code escalation}
     * @param rulesVersion  the rules' version
     * @param evidence      what it rests on, one line each
     * @param expected      the state it expects
     * @param deadline      by when
     * @param mode          {@code on} or {@code dry-run}
     */
    record RecoveryAdvised(
            String incident,
            int rung,
            String remedy,
            String node,
            String rule,
            String rulesVersion,
            List<String> evidence,
            String expected,
            Instant deadline,
            String mode)
            implements JobData {
        public RecoveryAdvised {
            evidence = List.copyOf(evidence);
        }
    }

    /**
     * Lifeline checked a remedy against fresh observations: its expected state was reached ({@code verified}) or not
     * ({@code failed}, the reason says what was seen). Written by the leader only, like {@link RecoveryAdvised}.
     */
    record RecoveryChecked(String incident, int rung, String verdict, String reason) implements JobData {}

    /**
     * An operator marked a checkpoint of the job trusted or suspect, overriding what its loss and verification say.
     * Written by Lifeline only (the trust API), so that every replica and every rebuild shows the same mark.
     *
     * @param checkpointId  the checkpoint
     * @param trusted       trusted (true) or suspect (false)
     * @param reason        why, as the operator said it
     * @param by            who marked it
     */
    record CheckpointTrustMarked(String checkpointId, boolean trusted, String reason, String by) implements JobData {}
}
