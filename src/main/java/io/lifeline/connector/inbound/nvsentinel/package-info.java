/** NVIDIA NVSentinel health events (its event exporter's CloudEvents) into GPU XIDs and node notices. */
package io.lifeline.connector.inbound.nvsentinel;
