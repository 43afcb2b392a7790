package io.lifeline.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.security.identity.Role;
import io.lifeline.testing.TestTokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Made-up tokens from one address are refused with 429 after a small burst, before the store is asked; tokens the
 * server knows keep working from that address, a real token it has never seen before included (no lockout of people
 * sharing the address), and other addresses are not affected.
 */
@QuarkusTest
class UnknownTokenFloodTest {

    @TestHTTPResource("/")
    URL base;

    @Inject
    TokenService tokens;

    /** One GET from {@code from} (a loopback address of its own, so that this flood has its own bucket). */
    private String get(String from, String path, String token) throws IOException {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(InetAddress.getByName(from), 0));
            s.connect(new InetSocketAddress(InetAddress.getByName(base.getHost()), base.getPort()), 5000);
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + token
                            + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static int status(String response) {
        return Integer.parseInt(response.substring(9, 12));
    }

    private static String madeUp(int i) {
        StringBuilder id = new StringBuilder("zzflood");
        for (int n = i, k = 0; k < 5; k++, n /= 26) {
            id.append((char) ('a' + n % 26));
        }
        return "llt_" + id + "_" + "A".repeat(43);
    }

    @Test
    void unknownTokenIdsFromOneAddressGet429AfterABurstBeforeAnyLookup() throws Exception {
        String known = TestTokens.create("flood-neighbour", Role.VIEWER, List.of());
        String flooder = "127.0.0.2";
        assertThat(status(get(flooder, "/api/v1/whoami", known))).isEqualTo(200);
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            statuses.add(status(get(flooder, "/api/v1/whoami", madeUp(i))));
        }
        // The burst (20) is answered 401; then the address is refused.
        assertThat(statuses.subList(0, 15)).containsOnly(401);
        assertThat(statuses.subList(22, 25)).containsOnly(429);
        int cached = tokens.cachedIds();
        String refused = null;
        int passed = 0;
        for (int i = 100; i < 130; i++) {
            String answer = get(flooder, "/api/v1/whoami", madeUp(i));
            if (status(answer) == 429) {
                refused = answer;
            } else {
                assertThat(status(answer)).isEqualTo(401);
                passed++;
            }
        }
        // The bucket refills at one a second: the odd one gets through while this runs, the rest are refused.
        assertThat(passed).isLessThanOrEqualTo(5);
        assertThat(refused).contains("Retry-After: ").contains("/problems/rate-limited");
        // The refused ones never reached the store: only the lookups let through were remembered.
        assertThat(tokens.cachedIds() - cached).isEqualTo(passed);
        // A token the server knows still works from that address; another address is not limited.
        assertThat(status(get(flooder, "/api/v1/whoami", known))).isEqualTo(200);
        assertThat(status(get("127.0.0.3", "/api/v1/whoami", madeUp(1000)))).isEqualTo(401);
        assertThat(status(get("127.0.0.3", "/api/v1/whoami", known))).isEqualTo(200);
    }

    @Test
    void aRealTokenNeverSeenBeforeIsNotLockedOutByItsAddresssFailures() throws Exception {
        String flooder = "127.0.0.9";
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            statuses.add(status(get(flooder, "/api/v1/whoami", madeUp(5000 + i))));
        }
        assertThat(statuses.subList(22, 25)).containsOnly(429);
        // Made a moment ago (as an admin hands out a new token), never presented to this server before.
        String fresh = TestTokens.create("after-the-flood", Role.VIEWER, List.of());
        assertThat(status(get(flooder, "/api/v1/whoami", fresh))).isEqualTo(200);
        // A real id with a wrong secret, and made-up ids, are still refused.
        String wrongSecret = fresh.substring(0, fresh.lastIndexOf('_') + 1) + "C".repeat(43);
        assertThat(status(get(flooder, "/api/v1/whoami", wrongSecret))).isIn(401, 429);
        assertThat(status(get(flooder, "/api/v1/whoami", madeUp(6000)))).isEqualTo(429);
    }
}
