package io.lifeline.domain.gpu;

import io.lifeline.domain.support.WireEnum;

/**
 * What to do when a GPU reports an XID, as decided by the {@link XidPolicy} table. Ordered from least to
 * most disruptive.
 */
public enum XidAction implements WireEnum {
    /** Nothing: informational, or handled by the driver, or it accompanies another XID that carries the action. */
    NONE,
    /** The application on the GPU faulted and must restart; the GPU itself is fine. */
    RESTART_APP,
    /** The GPU must be reset (all work on it stops) before it runs work again. */
    RESET_GPU,
    /** Only a reboot of the machine (or restart of the VM) recovers the GPU. */
    REBOOT,
    /** Take the node out of service and hand it to hardware service or the vendor. */
    DRAIN
}
