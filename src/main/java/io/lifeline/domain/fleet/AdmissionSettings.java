package io.lifeline.domain.fleet;

import java.time.Duration;

/**
 * When a node's admission failures make it a suspect.
 *
 * @param threshold  rejections within the window that make a Ready node a suspect, 1 to {@link AdmissionLog#KEPT}
 *                   (default 5)
 * @param window     the sliding window they are counted over (default 10 minutes)
 */
public record AdmissionSettings(int threshold, Duration window) {

    public AdmissionSettings {
        if (threshold < 1 || threshold > AdmissionLog.KEPT) {
            throw new IllegalArgumentException(
                    "the admission-failure threshold must be 1.." + AdmissionLog.KEPT + ", got " + threshold);
        }
        if (window == null || window.isNegative() || window.isZero()) {
            throw new IllegalArgumentException("the admission-failure window must be positive");
        }
    }

    public static AdmissionSettings defaults() {
        return new AdmissionSettings(5, Duration.ofMinutes(10));
    }
}
