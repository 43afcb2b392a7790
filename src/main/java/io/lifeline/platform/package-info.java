/**
 * The plumbing every background loop shares, written once: how long to wait before trying again ({@link
 * io.lifeline.platform.Backoff}), named daemon threads whose failures are logged ({@link
 * io.lifeline.platform.Threads}), the one JSON mapper configuration for code outside CDI ({@link
 * io.lifeline.platform.Json}), and which job, node and action a log line is about ({@link
 * io.lifeline.platform.LogContext}).
 *
 * <p>The bottom layer beside the domain: it uses only the JDK, Jackson and the logger, and every layer may use it
 * except the domain, which stays on the JDK alone (so a pure back-off such as {@code PolicyHygiene}'s stays there).
 */
package io.lifeline.platform;
