/** The NVIDIA driver's XID lines of a node's kernel log, posted by a node agent. */
package io.lifeline.connector.inbound.kernel;
