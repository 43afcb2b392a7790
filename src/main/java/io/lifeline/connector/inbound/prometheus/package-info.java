/** Prometheus' HTTP query API, read for co-location demand triggers. */
package io.lifeline.connector.inbound.prometheus;
