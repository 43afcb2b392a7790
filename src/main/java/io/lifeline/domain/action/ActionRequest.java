package io.lifeline.domain.action;

import java.util.Map;
import java.util.Objects;

/**
 * What somebody (a user, a token or a policy) asks for. Parameters by kind, all optional unless said:
 * <ul>
 *   <li>checkpoint-now: {@code deadlineSeconds} (default 300), {@code storage} ({@code any}, the default, or
 *       {@code durable}: only a checkpoint that outlives the node counts, and the trainers are told so)</li>
 *   <li>drain: {@code deadlineSeconds} (default 600), {@code allowDelete} (delete pods whose eviction is still refused
 *       at the deadline; default false)</li>
 *   <li>preempt: {@code deadlineSeconds} (for its checkpoint; default 300)</li>
 *   <li>rescale: {@code workers} (required: the target worker count), {@code checkpointFirst} (save a checkpoint,
 *       trainers holding still after it, before the workers change; default false)</li>
 *   <li>restore: {@code checkpointId} (required)</li>
 * </ul>
 *
 * @param kind   what to do
 * @param target a node name, or a job as {@code namespace/name}
 * @param params kind-specific parameters, as strings (validated by the planner, which names the field it refuses)
 * @param reason why, in the requester's words (kept in the audit)
 */
public record ActionRequest(ActionKind kind, String target, Map<String, String> params, String reason) {

    public ActionRequest {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(target, "target");
        params = params == null ? Map.of() : Map.copyOf(params);
        reason = reason == null ? "" : reason;
    }
}
