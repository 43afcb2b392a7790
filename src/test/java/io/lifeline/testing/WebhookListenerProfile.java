package io.lifeline.testing;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.nio.file.Path;
import java.util.Map;

/**
 * The eviction gate on, its webhook on its own TLS listener (any free port) requiring a client certificate from
 * {@link #API_SERVER_CA}, as the API server presents one. Shared by the tests of that listener so the application
 * starts once for them.
 */
public class WebhookListenerProfile implements QuarkusTestProfile {

    /** Signs the listener's certificate. */
    public static final TestCertificates.Issued SERVER_CA = TestCertificates.authority("lifeline-test-webhook-ca");
    /** Signs the client certificate of the (pretend) API server. */
    public static final TestCertificates.Issued API_SERVER_CA =
            TestCertificates.authority("lifeline-test-apiserver-ca");
    /** The API server's client certificate. */
    public static final TestCertificates.Issued API_SERVER = TestCertificates.issue(API_SERVER_CA, "kube-apiserver");
    /** Someone else's: a certificate from a CA the listener does not trust. */
    public static final TestCertificates.Issued STRANGER =
            TestCertificates.issue(TestCertificates.authority("lifeline-test-other-ca"), "kube-apiserver");

    private static final Path DIR = Path.of("target", "test-webhook");

    @Override
    public Map<String, String> getConfigOverrides() {
        Path cert = TestCertificates.issue(SERVER_CA, "lifeline-webhook").writePem(DIR, "server");
        Path clientCa = API_SERVER_CA.writePem(DIR, "apiserver-ca");
        return Map.of(
                "lifeline.eviction-gate.enabled",
                "true",
                "lifeline.eviction-gate.listener.port",
                "0",
                "lifeline.eviction-gate.listener.host",
                "127.0.0.1",
                "lifeline.eviction-gate.listener.certificate-file",
                cert.toAbsolutePath().toString(),
                "lifeline.eviction-gate.listener.key-file",
                DIR.resolve("server.key").toAbsolutePath().toString(),
                "lifeline.eviction-gate.listener.client-ca-file",
                clientCa.toAbsolutePath().toString(),
                "lifeline.eviction-gate.listener.request-timeout",
                "2s");
    }
}
