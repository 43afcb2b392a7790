package io.lifeline.api;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.TestCertificates;
import io.lifeline.testing.TestTokens;
import io.lifeline.testing.WebhookListenerProfile;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;

/**
 * The stall of the security probe, replayed: hundreds of clients trickle request bodies, a byte a second, to the
 * eviction webhook (its own TLS listener, and the API's port where it used to be) and to the dashboard's Vaadin
 * endpoint (anonymous, and with a signed-in session), more connections than the server has worker threads (200).
 * Before, each held a worker thread while its body trickled in, and {@code GET /api/v1/jobs} beside them took 52 s.
 * Now bodies are read by the event loop within a deadline: the API call beside them completes (its times are
 * printed, not asserted), readiness stays UP, and the trickling connections are cut off.
 */
@QuarkusTest
@TestProfile(WebhookListenerProfile.class)
class SlowClientsTest {

    private static final int WEBHOOK = 120;
    private static final int OLD_WEBHOOK_PATH = 80;
    private static final int UIDL_ANONYMOUS = 80;
    private static final int UIDL_SIGNED_IN = 120;
    private static final int BODY = 4000;

    @TestHTTPResource("/")
    URL base;

    @TestHTTPResource("/api/v1/jobs")
    URL jobs;

    @jakarta.inject.Inject
    io.lifeline.connector.inbound.kube.admission.EvictionWebhookListener listener;

    /** One trickling client: the socket, and whether the server has answered or closed it. */
    private static final class Trickle {
        final String kind;
        final Socket socket;
        String answer;

        Trickle(String kind, Socket socket) {
            this.kind = kind;
            this.socket = socket;
        }
    }

    @Test
    void slowBodiesHoldNoWorkerAndTheApiAnswersBesideThem() throws Exception {
        String cookie = signIn();
        List<Trickle> trickles = new ArrayList<>();
        SSLContext apiServer =
                TestCertificates.client(WebhookListenerProfile.SERVER_CA, WebhookListenerProfile.API_SERVER);
        try {
            for (int i = 0; i < WEBHOOK; i++) {
                trickles.add(open("webhook", webhook(apiServer), "/admission/v1/evictions", null));
            }
            for (int i = 0; i < OLD_WEBHOOK_PATH; i++) {
                trickles.add(open("old-webhook-path", plain(), "/admission/v1/evictions", null));
            }
            for (int i = 0; i < UIDL_ANONYMOUS; i++) {
                trickles.add(open("uidl-anonymous", plain(), "/?v-r=uidl&v-uiId=0", null));
            }
            for (int i = 0; i < UIDL_SIGNED_IN; i++) {
                trickles.add(open("uidl-signed-in", plain(), "/?v-r=uidl&v-uiId=0", cookie));
            }
            HttpClient http =
                    HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            List<Long> apiMillis = new ArrayList<>();
            long start = System.nanoTime();
            // Trickle for 12 s (past the dashboard's request timeout, 10 s), calling the API every second.
            while (System.nanoTime() - start < Duration.ofSeconds(12).toNanos()) {
                for (Trickle t : trickles) {
                    trickleOneByte(t);
                }
                long call = System.nanoTime();
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(URI.create(jobs.toString()))
                                .header("Authorization", "Bearer " + TestTokens.viewer())
                                .timeout(Duration.ofSeconds(60))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                apiMillis.add((System.nanoTime() - call) / 1_000_000);
                assertThat(r.statusCode()).isEqualTo(200);
                Thread.sleep(1000);
            }
            for (Trickle t : trickles) {
                trickleOneByte(t);
                t.socket.setSoTimeout(2000);
                readAnswer(t);
            }
            java.util.Map<String, java.util.Map<String, Long>> outcomes = new java.util.TreeMap<>();
            for (Trickle t : trickles) {
                outcomes.computeIfAbsent(t.kind, k -> new java.util.TreeMap<>()).merge(t.answer, 1L, Long::sum);
            }
            System.out.printf(
                    "%d trickling clients (%d webhook over TLS, %d to the API port's old webhook path, %d "
                            + "anonymous and %d signed-in Vaadin UIDL); GET /api/v1/jobs beside them took %s ms; "
                            + "outcomes %s%n",
                    trickles.size(), WEBHOOK, OLD_WEBHOOK_PATH, UIDL_ANONYMOUS, UIDL_SIGNED_IN, apiMillis, outcomes);
            given().get("/q/health/ready").then().statusCode(200);
            // Nobody's trickle was taken in: each was answered without its body, cut off at the deadline, or closed.
            assertThat(outcomes.get("uidl-signed-in").keySet()).allMatch(k -> k.equals("408") || k.equals("closed"));
            assertThat(outcomes.get("uidl-anonymous").keySet()).allMatch(k -> k.equals("200") || k.equals("closed"));
            assertThat(outcomes.get("old-webhook-path").keySet()).allMatch(k -> k.equals("401") || k.equals("closed"));
            assertThat(outcomes.get("webhook").keySet()).allMatch(k -> k.equals("408") || k.equals("closed"));
        } finally {
            for (Trickle t : trickles) {
                try {
                    t.socket.close();
                } catch (IOException e) {
                    // closed already
                }
            }
        }
    }

    private String signIn() throws IOException {
        try (Socket s = plain()) {
            s.setSoTimeout(20_000);
            String form = "token=" + URLEncoder.encode(TestTokens.operator(), StandardCharsets.UTF_8);
            s.getOutputStream()
                    .write(("POST /login HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: "
                                    + "application/x-www-form-urlencoded\r\nContent-Length: " + form.length()
                                    + "\r\n\r\n" + form)
                            .getBytes(StandardCharsets.US_ASCII));
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)set-cookie: (JSESSIONID=[^;\\r\\n]+)")
                    .matcher(answer);
            assertThat(m.find()).as(answer).isTrue();
            return m.group(1);
        }
    }

    private Socket plain() throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(base.getHost(), base.getPort()), 5000);
        s.setSoTimeout(50);
        return s;
    }

    private SSLSocket webhook(SSLContext ctx) throws IOException {
        SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket();
        s.connect(new InetSocketAddress("127.0.0.1", listener.port()), 5000);
        s.setSoTimeout(5000);
        try {
            s.startHandshake();
        } catch (IOException refused) {
            // Past the listener's connection cap the connection is closed at once; it counts as closed.
        }
        s.setSoTimeout(50);
        return s;
    }

    private static Trickle open(String kind, Socket s, String path, String cookie) {
        Trickle t = new Trickle(kind, s);
        try {
            OutputStream out = s.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                            + (cookie == null ? "" : "Cookie: " + cookie + "\r\n") + "Content-Length: " + BODY
                            + "\r\n\r\n{")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
        } catch (IOException e) {
            t.answer = "closed";
        }
        return t;
    }

    private static void trickleOneByte(Trickle t) {
        if (t.answer != null) {
            return;
        }
        try {
            if (t.socket.getInputStream().available() > 0) {
                readAnswer(t);
            }
        } catch (IOException e) {
            t.answer = "closed";
        }
        if (t.answer != null) {
            return;
        }
        try {
            t.socket.getOutputStream().write(' ');
            t.socket.getOutputStream().flush();
        } catch (IOException e) {
            t.answer = "closed";
        }
    }

    /** Whether the server has answered (its status) or closed; reads without waiting long. */
    private static void readAnswer(Trickle t) {
        if (t.answer != null) {
            return;
        }
        try {
            InputStream in = t.socket.getInputStream();
            byte[] head = new byte[12];
            int n = 0;
            while (n < 12) {
                int r = in.read(head, n, 12 - n);
                if (r < 0) {
                    t.answer = n >= 12 ? new String(head, 9, 3, StandardCharsets.US_ASCII) : "closed";
                    return;
                }
                n += r;
            }
            t.answer = new String(head, 9, 3, StandardCharsets.US_ASCII);
        } catch (java.net.SocketTimeoutException nothingYet) {
            // still open, no answer
        } catch (IOException e) {
            t.answer = "closed";
        }
    }
}
