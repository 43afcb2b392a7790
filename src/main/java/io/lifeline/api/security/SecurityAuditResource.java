package io.lifeline.api.security;

import io.lifeline.security.TokenService;
import io.lifeline.security.store.SecurityStore;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/** {@code GET /api/v1/security/audit}: tokens created and revoked, newest first (admin only). */
@Path("/api/v1/security/audit")
@Produces(MediaType.APPLICATION_JSON)
public class SecurityAuditResource {

    private static final int MAX_LIMIT = 1000;

    private final TokenService tokens;

    SecurityAuditResource(TokenService tokens) {
        this.tokens = tokens;
    }

    /** One page of the audit. */
    public record AuditPage(List<SecurityStore.AuditRecord> records) {}

    @GET
    public AuditPage list(@QueryParam("limit") Integer limit) {
        int n = limit == null ? 100 : limit;
        if (n < 1 || n > MAX_LIMIT) {
            throw new IllegalArgumentException("limit: must be between 1 and " + MAX_LIMIT + ", got " + n);
        }
        return new AuditPage(tokens.audit(n));
    }
}
