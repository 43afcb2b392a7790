/**
 * The demo fleet's journal in PostgreSQL ({@link io.lifeline.demo.store.DemoJournalStore}, tables {@code demo_run} and
 * {@code demo_call}), on the event log's transaction helper.
 */
package io.lifeline.demo.store;
