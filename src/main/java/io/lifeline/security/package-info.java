/**
 * Who may do what through the API, enforced on the server in one place.
 *
 * <ul>
 *   <li>{@link io.lifeline.web.SecurityGate}: a Vert.x filter in front of everything; applies
 *       {@link io.lifeline.security.AccessRules} (method + path to role, deny by default under {@code /api}),
 *       verifies bearer tokens, rate limits ingest and action creation, adds security headers.</li>
 *   <li>{@link io.lifeline.security.TokenService}: API tokens ({@code llt_<id>_<secret>}, SHA-256 stored, cached
 *       briefly, revocable, expiring) and the security audit.</li>
 *   <li>{@link io.lifeline.security.identity.Caller} / {@link io.lifeline.security.CurrentCaller}: the verified caller, with
 *       the namespace checks action code needs.</li>
 *   <li>{@link io.lifeline.security.AdminBootstrap}: the first admin token, written to a file only the user can
 *       read.</li>
 * </ul>
 */
package io.lifeline.security;
