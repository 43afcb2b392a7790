/**
 * What is read and written about actions, below both the service and its store: an action and its steps as the API
 * and the dashboard show them ({@link io.lifeline.action.view.ActionView}, {@link io.lifeline.action.view.ActionStepView}),
 * what a step hands the next ({@link io.lifeline.action.view.StepResult}), audit entries, and the queries that select
 * them. Records only; nothing here knows the service or the store.
 */
package io.lifeline.action.view;
