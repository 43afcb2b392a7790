package io.lifeline.domain.fleet;

import java.time.Instant;

/**
 * One pod a node's kubelet rejected.
 *
 * @param time    when (the pod's status time, else when it was seen)
 * @param pod     {@code namespace/name}
 * @param reason  the pod's {@code status.reason}
 */
public record AdmissionFailure(Instant time, String pod, String reason) {}
