package io.lifeline.connector.outbound.cloud;

import io.lifeline.connector.LifecycleAction;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code CompleteLifecycleAction} of the Auto Scaling query API (version 2011-01-01), a form POST signed with
 * {@link SigV4} for service {@code autoscaling}. The endpoint is {@code https://autoscaling.<region>.amazonaws.com}
 * unless one is configured (a VPC endpoint, or a local server in tests); AWS's error answer
 * ({@code <Code>}, {@code <Message>}) becomes a {@link Outcome.Refused}.
 */
public final class AwsAutoScalingApi implements LifecycleActions {

    private static final Pattern CODE = Pattern.compile("<Code>([^<]*)</Code>");
    private static final Pattern MESSAGE = Pattern.compile("<Message>([^<]*)</Message>");

    private final String endpoint;
    private final Supplier<SigV4.Credentials> credentials;
    private final Duration timeout;
    private final Clock clock;
    private final HttpClient http;

    /**
     * @param endpoint     base URL, or null for the region's public endpoint
     * @param credentials  asked for at each call (temporary credentials rotate)
     */
    public AwsAutoScalingApi(String endpoint, Supplier<SigV4.Credentials> credentials, Duration timeout, Clock clock) {
        this.endpoint = endpoint == null || endpoint.isBlank() ? null : endpoint.trim();
        this.credentials = credentials;
        this.timeout = timeout;
        this.clock = clock;
        this.http = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    @Override
    public Outcome complete(LifecycleAction a) {
        Map<String, String> form = new TreeMap<>();
        form.put("Action", "CompleteLifecycleAction");
        form.put("Version", "2011-01-01");
        form.put("AutoScalingGroupName", a.autoScalingGroupName());
        form.put("LifecycleHookName", a.lifecycleHookName());
        form.put("LifecycleActionToken", a.token());
        form.put("InstanceId", a.instanceId());
        form.put("LifecycleActionResult", "CONTINUE");
        StringBuilder body = new StringBuilder();
        form.forEach((k, v) -> body.append(body.length() == 0 ? "" : "&")
                .append(encode(k))
                .append('=')
                .append(encode(v)));
        byte[] payload = body.toString().getBytes(StandardCharsets.UTF_8);
        URI uri = URI.create(endpoint != null ? endpoint : "https://autoscaling." + a.region() + ".amazonaws.com/");
        String host = uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
        String contentType = "application/x-www-form-urlencoded; charset=utf-8";
        SigV4.Credentials c;
        try {
            c = credentials.get();
        } catch (RuntimeException e) {
            return new Outcome.Refused(0, "NoCredentials", e.getMessage());
        }
        Map<String, String> signed = SigV4.sign(
                "POST",
                uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath(),
                "",
                Map.of("host", host, "content-type", contentType),
                payload,
                a.region(),
                "autoscaling",
                c,
                clock.instant());
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(timeout)
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofByteArray(payload));
        signed.forEach(request::header);
        try {
            HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200) {
                return new Outcome.Completed();
            }
            String code = first(CODE, r.body());
            String message = first(MESSAGE, r.body());
            if (r.statusCode() >= 500) {
                return new Outcome.Unreachable("HTTP " + r.statusCode() + " " + code + ": " + message);
            }
            return new Outcome.Refused(r.statusCode(), code, message);
        } catch (IOException e) {
            return new Outcome.Unreachable(
                    e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome.Unreachable("interrupted");
        }
    }

    private static String first(Pattern p, String body) {
        Matcher m = p.matcher(body == null ? "" : body);
        return m.find() ? m.group(1) : "";
    }

    /** RFC 3986 unreserved characters kept, everything else percent-encoded, as SigV4 wants. */
    static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8)
                .replace("+", "%20")
                .replace("*", "%2A")
                .replace("%7E", "~");
    }
}
