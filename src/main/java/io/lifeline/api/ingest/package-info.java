/** The event API: {@code POST /api/v1/events} into the ingest gateway, and the stored log read back. */
package io.lifeline.api.ingest;
