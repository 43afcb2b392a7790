package io.lifeline.connector.inbound.kube;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * How watching one kind goes.
 *
 * @param kind    what is watched ({@code nodes}, {@code pods}, {@code events}, {@code pytorchjobs},
 *                {@code kueue-workloads}, {@code volcano-jobs}, {@code dcgm-exporter-endpoints})
 * @param state   {@code starting}, {@code watching}, {@code off} (by configuration), {@code crd-missing} (the
 *                kind's CRD is not installed; looked for again periodically) or {@code error}
 * @param detail  why, when not watching
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record KindStatus(String kind, String state, String detail) {}
