package io.lifeline.domain.job;

import io.lifeline.domain.event.ElasticPolicy;
import io.lifeline.domain.job.checkpoint.FreshnessView;
import io.lifeline.domain.job.goodput.GoodputView;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.incident.IncidentView;
import io.lifeline.domain.job.membership.MembershipView;
import io.lifeline.domain.job.spot.SpotPlacement;
import java.util.List;
import java.util.Map;

/**
 * Everything about one job at a glance.
 *
 * @param summary                    the list row
 * @param owner                      owner, or null
 * @param priorityClass              priority class, or null
 * @param elastic                    elastic policy, or null
 * @param gpusPerNode                GPUs per node from the job's spec (0 for a job on CPUs, or when no spec
 *                                   said; a job without a spec is taken to hold one GPU per rank)
 * @param checkpointIntervalSeconds  configured checkpoint interval, or null
 * @param finishReason               why it ended, or null
 * @param samplesPerSecond           latest reported throughput, or null
 * @param tokensPerSecond            latest reported throughput, or null
 * @param agentRestarts              the elastic agent's own restart count, as last reported
 * @param freshness                  checkpoint freshness
 * @param goodput                    goodput buckets
 * @param membership                 current membership and its history
 * @param openIncident               the open incident, or null
 * @param interruptionsByCause       interruption counts by cause
 * @param refusedTransitions         recent transitions the state machine refused, oldest first
 * @param duplicatesDropped          redelivered events ignored
 * @param lateEvents                 events applied after events with a later time (accounted at the watermark)
 * @param placement                  where its coordinating roles (rank 0, rendezvous endpoint) run, flagged when on
 *                                   spot while its pools offer on-demand capacity
 * @param stragglers                 ranks persistently slower than their peers, what they cost, the drain offered
 * @param healsItself                how the job heals its own replica failures (TorchFT), or null: such failures
 *                                   are left to it
 * @param progress                   which progress source is trusted (the agent, the TrainJob's status) and what the
 *                                   TrainJob's status report says
 */
public record JobDetail(
        JobSummary summary,
        String owner,
        String priorityClass,
        ElasticPolicy elastic,
        int gpusPerNode,
        Long checkpointIntervalSeconds,
        String finishReason,
        Double samplesPerSecond,
        Double tokensPerSecond,
        int agentRestarts,
        FreshnessView freshness,
        GoodputView goodput,
        MembershipView membership,
        IncidentView openIncident,
        Map<IncidentCause, Integer> interruptionsByCause,
        List<RefusedTransition> refusedTransitions,
        long duplicatesDropped,
        long lateEvents,
        SpotPlacement placement,
        io.lifeline.domain.job.straggler.StragglerView stragglers,
        io.lifeline.domain.event.JobData.SelfHealing healsItself,
        ProgressView progress) {}
