/** Automation policies: settings, persistence and the engine that turns model changes into action requests. */
package io.lifeline.policy;
