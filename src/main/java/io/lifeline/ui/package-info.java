/**
 * The operator dashboard (Vaadin, server-side): login with an API token, Overview, Fleet, Jobs, Job detail,
 * Reliability, Alerts, Actions and Audit.
 *
 * <p>How it is put together:
 * <ul>
 *   <li>Views read view models (records) made by presenters ({@code OverviewPresenter}, {@code FleetPresenter},
 *       {@code JobsPresenter}, {@code JobDetailPresenter}); click listeners only call presenters or services.</li>
 *   <li>Data comes from {@link io.lifeline.ui.data.DashboardData}: one shared, immutable snapshot of the model, read
 *       at most about once a second on the model thread while a view is open, handed to views with
 *       {@code UI.access} (server push). A view redraws only when its own view model changed, so a burst of events
 *       costs at most one push per second per view, and ten open dashboards cost one model read.</li>
 *   <li>Reads beyond the snapshot (one node, one job, the fleet's reliability) and every action call run off the UI
 *       thread ({@link io.lifeline.ui.ModelReads}, {@link io.lifeline.ui.ActionsGateway}); the reliability read is
 *       {@link io.lifeline.security.ReliabilityReads}, the one behind {@code GET /api/v1/fleet/reliability}.</li>
 *   <li>Charts are Apache ECharts from its webjar, driven by {@link io.lifeline.ui.EChart}; the fleet heat map is
 *       one chart whatever the fleet size. Styling is Lumo plus the runtime stylesheet {@code frontend/styles/app.css}
 *       (no frontend bundle rebuild).</li>
 *   <li>Access: {@link io.lifeline.ui.UiSession} keeps the verified caller in the Vaadin session;
 *       {@link io.lifeline.ui.MainLayout} sends anyone not signed in to the login page; action buttons are shown only
 *       to callers who may act on the target, and the action service checks again. What every view shows is cut to
 *       the signed-in caller's {@link io.lifeline.security.Scope} ({@link io.lifeline.ui.UiSession#scope()}): the
 *       snapshots {@link io.lifeline.ui.Live} subscribes to, the reads of {@link io.lifeline.ui.ModelReads} and the
 *       gateways' lists, with the same rule as the REST reads.</li>
 *   <li>Accessibility: {@link io.lifeline.ui.MainLayout} gives every page its landmarks (header, nav, one main) and
 *       a skip link; each view has one {@code h1}; charts are described in words or, for the heat map, operable from
 *       the keyboard with a live region ({@link io.lifeline.ui.EChart}); chart colours are Lumo custom properties
 *       resolved for the theme in force ({@link io.lifeline.ui.ThemeSwitch}); filters, the open node and a
 *       timeline's window live in the URL ({@link io.lifeline.ui.UrlState}). {@code AccessibilityBrowserTest} runs
 *       axe-core on every page in both themes; {@code KeyboardBrowserTest} works the dashboard without a pointer.</li>
 * </ul>
 */
package io.lifeline.ui;
