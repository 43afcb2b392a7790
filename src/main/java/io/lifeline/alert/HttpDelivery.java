package io.lifeline.alert;

import io.lifeline.alert.receiver.Receiver;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Map;

/**
 * Posts a body to a receiver and says how it went. Error texts never carry the receiver's address (it can hold a
 * credential): they name the kind of failure only.
 */
final class HttpDelivery {

    /**
     * One attempt's result.
     *
     * @param status  HTTP status, or null when no answer came
     * @param error   what went wrong, or null
     * @param millis  how long it took
     * @param retryAfter  the receiver's {@code Retry-After} header, or null
     */
    record Result(Integer status, String error, long millis, String retryAfter) {

        Result(Integer status, String error, long millis) {
            this(status, error, millis, null);
        }

        boolean ok() {
            return status != null && status >= 200 && status < 300;
        }

        /** Worth another attempt: no answer, a server error, a timeout or a rate limit. */
        boolean retryable() {
            return status == null || status >= 500 || status == 408 || status == 429;
        }
    }

    private final HttpClient client;
    private final Duration timeout;

    HttpDelivery(Duration timeout) {
        this.timeout = timeout;
        this.client = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    Result post(Receiver r, byte[] body, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(r.target())
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .header("User-Agent", "Lifeline-Alerts/1")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(b::header);
        long start = System.nanoTime();
        try {
            HttpResponse<Void> resp = client.send(b.build(), HttpResponse.BodyHandlers.discarding());
            int s = resp.statusCode();
            return new Result(
                    s,
                    s >= 200 && s < 300 ? null : "HTTP " + s,
                    elapsed(start),
                    resp.headers().firstValue("Retry-After").orElse(null));
        } catch (HttpTimeoutException e) {
            return new Result(null, "timeout after " + timeout.toMillis() + " ms", elapsed(start));
        } catch (IOException e) {
            return new Result(null, "connection failed (" + e.getClass().getSimpleName() + ")", elapsed(start));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(null, "interrupted", elapsed(start));
        }
    }

    private static long elapsed(long start) {
        return (System.nanoTime() - start) / 1_000_000;
    }
}
