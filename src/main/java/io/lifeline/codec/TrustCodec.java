package io.lifeline.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.TrainerData;

/**
 * The wire form of what judges a checkpoint's trust: the {@code loss} of {@code trainer.progress} and
 * {@code trainer.checkpoint.started}, the {@code reason} (and free space) of {@code trainer.checkpoint.failed}, and
 * {@code job.checkpoint_trust}. JSON has no NaN: a non-finite loss travels as one of three strings, and nothing else
 * that is not a number is taken.
 */
final class TrustCodec {

    private static final int MAX_REASON = 500;

    private TrustCodec() {}

    /** The optional {@code loss}: a number, or exactly {@code "nan"}, {@code "inf"} or {@code "-inf"}. */
    static Double loss(DataReader d) {
        JsonNode v = d.raw("loss");
        if (v == null) {
            return null;
        }
        if (v.isNumber()) {
            return v.doubleValue();
        }
        if (v.isTextual()) {
            switch (v.asText()) {
                case "nan":
                    return Double.NaN;
                case "inf":
                    return Double.POSITIVE_INFINITY;
                case "-inf":
                    return Double.NEGATIVE_INFINITY;
                default:
                    throw new InvalidEventException(d.path("loss")
                            + ": expected a number, or \"nan\", \"inf\" or \"-inf\" for a non-finite loss, got '"
                            + DataReader.abbreviate(v.asText()) + "'");
            }
        }
        throw new InvalidEventException(d.path("loss")
                + ": expected a number, or \"nan\", \"inf\" or \"-inf\" for a non-finite loss, got "
                + DataReader.describe(v));
    }

    static void putLoss(ObjectNode o, Double loss) {
        if (loss == null) {
            return;
        }
        if (Double.isNaN(loss)) {
            o.put("loss", "nan");
        } else if (Double.isInfinite(loss)) {
            o.put("loss", loss > 0 ? "inf" : "-inf");
        } else {
            o.put("loss", loss.doubleValue());
        }
    }

    /** The optional {@code reason} of a failed save: {@code no_space} (the only one the catalogue knows). */
    static TrainerData.FailReason failReason(DataReader d) {
        return d.optEnum("reason", TrainerData.FailReason::fromWireName, "no_space");
    }

    static void encodeFailed(TrainerData.CheckpointFailed c, ObjectNode o) {
        o.put("checkpointId", c.checkpointId()).put("step", c.step());
        if (c.error() != null) {
            o.put("error", c.error());
        }
        if (c.reason() != null) {
            o.put("reason", c.reason().wireName());
        }
        if (c.freeBytes() != null) {
            o.put("freeBytes", c.freeBytes());
        }
        if (c.capacityBytes() != null) {
            o.put("capacityBytes", c.capacityBytes());
        }
        if (c.neededBytes() != null) {
            o.put("neededBytes", c.neededBytes());
        }
    }

    static JobData.CheckpointTrustMarked marked(DataReader d) {
        String reason = d.reqString("reason");
        if (reason.length() > MAX_REASON) {
            throw new InvalidEventException(d.path("reason") + ": at most " + MAX_REASON + " characters");
        }
        return new JobData.CheckpointTrustMarked(
                d.reqString("checkpointId"), d.reqBool("trusted"), reason, d.reqString("by"));
    }

    static void encodeMarked(JobData.CheckpointTrustMarked m, ObjectNode o) {
        o.put("checkpointId", m.checkpointId())
                .put("trusted", m.trusted())
                .put("reason", m.reason())
                .put("by", m.by());
    }
}
