/**
 * Goodput objectives at run time: sampling the model into the objectives' series, the objectives set by configuration
 * or the API, and what the alert rules, metrics and dashboard read of them.
 */
package io.lifeline.objective;
