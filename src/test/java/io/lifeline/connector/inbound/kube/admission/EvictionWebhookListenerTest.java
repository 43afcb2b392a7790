package io.lifeline.connector.inbound.kube.admission;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.TestCertificates;
import io.lifeline.testing.WebhookListenerProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
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
 * The eviction webhook on its own TLS listener, with a real TLS client: the API server's client certificate gets a
 * review decided; no certificate, or one from another CA, gets no further than the handshake; the API's port no
 * longer serves the webhook; a body over the limit is refused unread, a slow body is cut off at the request timeout,
 * and past the rate limit reviews are answered 429.
 */
@QuarkusTest
@TestProfile(WebhookListenerProfile.class)
class EvictionWebhookListenerTest {

    @Inject
    EvictionWebhookListener listener;

    static String review(String uid, String namespace, String pod) {
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"" + uid
                + "\",\"kind\":{\"group\":\"policy\",\"version\":\"v1\",\"kind\":\"Eviction\"},"
                + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"},\"subResource\":\"eviction\","
                + "\"name\":\"" + pod + "\",\"namespace\":\"" + namespace + "\",\"operation\":\"CREATE\","
                + "\"object\":{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"" + pod
                + "\",\"namespace\":\"" + namespace + "\"}}}}";
    }

    static SSLContext apiServer() {
        return TestCertificates.client(WebhookListenerProfile.SERVER_CA, WebhookListenerProfile.API_SERVER);
    }

    /** A TLS connection to the listener, handshake done. */
    static SSLSocket connect(SSLContext ctx, int port) throws IOException {
        SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        s.setSoTimeout(15_000);
        s.startHandshake();
        return s;
    }

    static String head(int contentLength) {
        return "POST /admission/v1/evictions HTTP/1.1\r\nHost: lifeline-webhook.lifeline.svc\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + contentLength + "\r\n\r\n";
    }

    /** Sends one whole request and reads the answer until the server closes or 15 s pass. */
    static String exchange(SSLContext ctx, int port, String request) throws IOException {
        try (SSLSocket s = connect(ctx, port)) {
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            return readAnswer(s.getInputStream());
        }
    }

    /** Reads one HTTP/1.1 answer (headers and a Content-Length body). */
    static String readAnswer(InputStream in) throws IOException {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            got.write(b);
            String text = got.toString(StandardCharsets.UTF_8);
            int end = text.indexOf("\r\n\r\n");
            if (end >= 0) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)content-length: *(\\d+)")
                        .matcher(text);
                int length = m.find() ? Integer.parseInt(m.group(1)) : 0;
                if (got.size() >= end + 4 + length) {
                    return text;
                }
            }
        }
        return got.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theApiServersCertificateGetsAReviewDecided() throws Exception {
        String body = review("uid-listener-1", "nobody", "some-pod");
        String answer =
                exchange(apiServer(), listener.port(), head(body.getBytes(StandardCharsets.UTF_8).length) + body);
        assertThat(answer)
                .startsWith("HTTP/1.1 200")
                .contains("\"uid\":\"uid-listener-1\"", "\"allowed\":true", "\"kind\":\"AdmissionReview\"");
    }

    @Test
    void noClientCertificateOrAStrangersGetsNoFurtherThanTheHandshake() {
        String body = review("uid-listener-2", "nobody", "some-pod");
        String request = head(body.length()) + body;
        for (TestCertificates.Issued client : java.util.Arrays.asList(null, WebhookListenerProfile.STRANGER)) {
            String answer;
            try {
                answer = exchange(
                        TestCertificates.client(WebhookListenerProfile.SERVER_CA, client), listener.port(), request);
            } catch (IOException refused) {
                answer = "refused: " + refused;
            }
            assertThat(answer)
                    .as("with %s", client == null ? "no certificate" : "another CA's certificate")
                    .doesNotContain("HTTP/1.1")
                    .doesNotContain("AdmissionReview");
        }
    }

    @Test
    void theApisPortDoesNotServeTheWebhook() {
        String body = review("uid-listener-3", "nobody", "some-pod");
        var answer = given().contentType("application/json")
                .body(body)
                .post("/admission/v1/evictions")
                .then()
                .extract();
        assertThat(answer.statusCode()).isNotEqualTo(200);
        assertThat(answer.asString()).doesNotContain("AdmissionReview");
    }

    @Test
    void aBodyOverTheLimitIsRefusedUnread() throws Exception {
        try (SSLSocket s = connect(apiServer(), listener.port())) {
            OutputStream out = s.getOutputStream();
            out.write(head(200_000).getBytes(StandardCharsets.US_ASCII));
            out.write("{\"apiVersion\":".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readAnswer(s.getInputStream())).startsWith("HTTP/1.1 413");
        }
    }

    @Test
    void aSlowBodyIsCutOffAtTheRequestTimeout() throws Exception {
        String body = review("uid-listener-4", "nobody", "some-pod");
        try (SSLSocket s = connect(apiServer(), listener.port())) {
            OutputStream out = s.getOutputStream();
            out.write(head(body.length()).getBytes(StandardCharsets.US_ASCII));
            out.write(body.substring(0, 10).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            long start = System.nanoTime();
            String answer = readAnswer(s.getInputStream());
            long ms = (System.nanoTime() - start) / 1_000_000;
            System.out.printf(
                    "slow body answered after %d ms: %s%n",
                    ms, answer.lines().findFirst().orElse(""));
            assertThat(answer).startsWith("HTTP/1.1 408");
            // The server closed the connection: nothing more comes.
            assertThat(s.getInputStream().read()).isEqualTo(-1);
        }
    }

    @Test
    void connectionsThatBeganAReviewAreCountedOutWhenTheyClose() throws Exception {
        // More connections than the listener takes at once, each a review begun and left: once they are gone, the
        // listener counts them out and takes reviews again (it used to count only up, and then closed every newcomer).
        String body = review("uid-listener-5", "nobody", "some-pod");
        List<SSLSocket> open = new ArrayList<>();
        try {
            for (int i = 0; i < 70; i++) {
                SSLSocket s = connect(apiServer(), listener.port());
                s.getOutputStream()
                        .write((head(body.length()) + body.substring(0, 10)).getBytes(StandardCharsets.UTF_8));
                s.getOutputStream().flush();
                open.add(s);
            }
        } finally {
            for (SSLSocket s : open) {
                s.close();
            }
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (listener.connections() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(listener.connections())
                .as("connections the listener still counts")
                .isZero();
        String answer =
                exchange(apiServer(), listener.port(), head(body.getBytes(StandardCharsets.UTF_8).length) + body);
        assertThat(answer).startsWith("HTTP/1.1 200").contains("\"uid\":\"uid-listener-5\"");
        // Let the rate limit's bucket fill again for the other tests.
        Thread.sleep(2500);
    }

    @Test
    void pastTheRateLimitReviewsAreAnswered429Unread() throws Exception {
        HttpClient client = HttpClient.newBuilder()
                .sslContext(apiServer())
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        URI uri = URI.create("https://127.0.0.1:" + listener.port() + "/admission/v1/evictions");
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            HttpResponse<String> r = client.send(
                    HttpRequest.newBuilder(uri)
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(review("uid-rate-" + i, "nobody", "pod-" + i)))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            statuses.add(r.statusCode());
        }
        long limited = statuses.stream().filter(s -> s == 429).count();
        System.out.printf("250 reviews at once: %d decided, %d refused 429%n", statuses.size() - limited, limited);
        assertThat(statuses).containsOnly(200, 429);
        assertThat(statuses.subList(0, 90)).containsOnly(200);
        assertThat(limited).isPositive();
        assertThat(given().get("/metrics").asString())
                .containsPattern("lifeline_eviction_webhook_refused_total\\{reason=\"rate_limited\",?} [1-9]");
        // Let the bucket fill again for the other tests.
        Thread.sleep(2500);
    }
}
