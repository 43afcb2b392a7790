package io.lifeline.demo;

import java.util.List;

/**
 * The XID errors the simulator injects, with the driver's message (dcgm-exporter's {@code err_msg} text)
 * and what each does to the node and the job on it. Fatal codes follow NVIDIA's and NVSentinel's
 * catalogues: 79, 48, 95 and 119 need a GPU reset or a reboot, so the node goes NotReady until repaired;
 * 94 (a contained ECC error) kills only the process on that GPU, so the job restarts on the same nodes.
 * 13, 31 and 43 are usually the application's own fault and leave node and job running.
 */
final class XidCatalog {

    /** What an XID does. */
    enum Effect {
        /** Logged only: the node and the job carry on. */
        BENIGN,
        /** The process on the GPU dies; the job restarts from its newest checkpoint on the same nodes. */
        RESTART_APP,
        /** The GPU is unusable until a reset or reboot: the node goes NotReady and the job loses it. */
        NODE_DOWN
    }

    /**
     * One catalogue row.
     *
     * @param code     XID code
     * @param message  driver message
     * @param effect   what it does
     * @param error    the error the trainer process reports when it dies of it, null when it does not
     */
    record Xid(int code, String message, Effect effect, String error) {}

    static final List<Xid> FATAL = List.of(
            new Xid(
                    79,
                    "GPU has fallen off the bus",
                    Effect.NODE_DOWN,
                    "RuntimeError: CUDA error: unspecified launch failure"),
            new Xid(
                    48,
                    "Double Bit ECC Error",
                    Effect.NODE_DOWN,
                    "RuntimeError: CUDA error: uncorrectable ECC error encountered"),
            new Xid(
                    94,
                    "Contained ECC error",
                    Effect.RESTART_APP,
                    "RuntimeError: CUDA error: uncorrectable ECC error encountered"),
            new Xid(
                    95,
                    "Uncontained ECC error",
                    Effect.NODE_DOWN,
                    "RuntimeError: CUDA error: uncorrectable ECC error encountered"),
            new Xid(
                    119,
                    "GSP RPC Timeout",
                    Effect.NODE_DOWN,
                    "torch.distributed.DistBackendError: NCCL error: unhandled cuda error"));

    static final List<Xid> BENIGN = List.of(
            new Xid(13, "Graphics Engine Exception", Effect.BENIGN, null),
            new Xid(31, "GPU memory page fault", Effect.BENIGN, null),
            new Xid(43, "GPU stopped processing", Effect.BENIGN, null));

    /** The catalogue row of a code, or null when the simulator does not know it. */
    static Xid find(int code) {
        for (Xid x : FATAL) {
            if (x.code() == code) {
                return x;
            }
        }
        for (Xid x : BENIGN) {
            if (x.code() == code) {
                return x;
            }
        }
        return null;
    }

    /** XIDs whose ECC nature shows in the GPU's double-bit ECC counter. */
    static boolean countsAsDbe(int code) {
        return code == 48 || code == 94 || code == 95;
    }

    private XidCatalog() {}
}
