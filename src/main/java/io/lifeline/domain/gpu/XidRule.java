package io.lifeline.domain.gpu;

/**
 * What the {@link XidPolicy} says about one XID code: the upstream facts (mnemonic, description,
 * recommendation) and Lifeline's decision (action and health impact).
 *
 * @param xid             XID code
 * @param mnemonic        NVIDIA's mnemonic (whitespace collapsed), may be null when no table names it
 * @param description     one-line description, may be null when no table describes it
 * @param recommendation  the recommended action in NVSentinel's table (for example {@code RESET_GPU}), may be null
 * @param fatal           whether NVSentinel's table marks it FATAL
 * @param investigation   NVIDIA's investigatory resolution, may be null
 * @param action          what Lifeline does about it
 * @param health          the verdict it imposes on the GPU (at worst; other evidence can make it worse)
 * @param note            why the policy decides so
 * @param known           whether any source table lists this XID (false: the policy's default applies)
 */
public record XidRule(
        int xid,
        String mnemonic,
        String description,
        String recommendation,
        boolean fatal,
        String investigation,
        XidAction action,
        GpuHealth health,
        String note,
        boolean known) {

    /** Short human-readable form, for example {@code XID 79 (GPU has fallen off the bus)}. */
    public String label() {
        return description == null ? "XID " + xid : "XID " + xid + " (" + description + ")";
    }
}
