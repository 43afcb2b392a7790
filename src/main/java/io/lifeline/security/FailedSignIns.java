package io.lifeline.security;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * Failed sign-ins per client address, in every way in: API tokens that do not verify (unknown id, wrong secret),
 * dashboard sign-ins with such a token, identity-provider tokens (bearer JWTs) that do not verify and single sign-on
 * callbacks that fail. Each failure takes a permit from its address's bucket
 * ({@code lifeline.security.rate-limit.unknown-tokens}); while an address has none left it is <em>throttled</em>:
 * a token of its that is not known to exist is refused (429) before the store or the provider is asked. A token that
 * exists is never refused for its address's failures ({@link TokenService#knownToExist}), so an attacker sharing a
 * proxy or NAT address with people cannot lock them out.
 */
@ApplicationScoped
public class FailedSignIns {

    private final TokenBuckets buckets;

    FailedSignIns(SecurityConfig config) {
        this.buckets = new TokenBuckets(
                config.rateLimit().unknownTokens().perSecond(),
                config.rateLimit().unknownTokens().burst(),
                config.tokenCache().maxEntries());
    }

    /** How many nanoseconds until {@code address} may try an unknown token again; 0 when it is not throttled. */
    public long throttled(String address) {
        return buckets.waitFor(address, System.nanoTime());
    }

    /** Records one failure from {@code address}. */
    public void failed(String address) {
        buckets.tryAcquire(address, System.nanoTime());
    }
}
