/**
 * Who a request comes from and what it may do: the verified {@link io.lifeline.security.identity.Caller}, its
 * {@link io.lifeline.security.identity.Role}, the {@link io.lifeline.security.identity.ApiToken} that names it, and
 * the refusal when it may not ({@link io.lifeline.security.identity.AccessDeniedException}, HTTP 403). Plain values
 * with no dependency on the rest of {@code security}, so that the services above and the stores below
 * ({@code security.store}) share them.
 */
package io.lifeline.security.identity;
