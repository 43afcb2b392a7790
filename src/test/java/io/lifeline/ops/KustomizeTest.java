package io.lifeline.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.testing.RequiredTool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Renders {@code deploy/k8s} with {@code kubectl kustomize} and checks what matters: the RBAC grants exactly the API
 * calls Lifeline makes, the Deployment is hardened, and the PrometheusRule only uses metric names the code
 * registers or records, or a goodput objective's series ({@link ObjectiveSeries}), and passes
 * {@code promtool check rules}.
 */
class KustomizeTest {

    private static final String KUBECTL = "/usr/bin/kubectl";

    /**
     * Every (API group, resource, verb) Lifeline needs cluster-wide. Connectors (io.lifeline.connector.inbound.kube):
     * informers (get is granted with list/watch) on nodes, pods, events, endpoints, endpointslices, pytorchjobs,
     * workloads and Volcano jobs; a CRD presence check by name. Actions (io.lifeline.connector.outbound.kube): cordon
     * (nodes patch), evict (pods/eviction create, pods delete after the drain deadline), suspend and resize
     * (pytorchjobs, workloads patch).
     */
    private static final Set<String> CLUSTER_RULES = Set.of(
            "/nodes/get",
            "/nodes/list",
            "/nodes/watch",
            "/nodes/patch",
            "/pods/get",
            "/pods/list",
            "/pods/watch",
            "/pods/delete",
            "/pods/eviction/create",
            "/events/get",
            "/events/list",
            "/events/watch",
            "/endpoints/get",
            "/endpoints/list",
            "/endpoints/watch",
            "discovery.k8s.io/endpointslices/get",
            "discovery.k8s.io/endpointslices/list",
            "discovery.k8s.io/endpointslices/watch",
            "kubeflow.org/pytorchjobs/get",
            "kubeflow.org/pytorchjobs/list",
            "kubeflow.org/pytorchjobs/watch",
            "kubeflow.org/pytorchjobs/patch",
            "trainer.kubeflow.org/trainjobs/get",
            "trainer.kubeflow.org/trainjobs/list",
            "trainer.kubeflow.org/trainjobs/watch",
            "trainer.kubeflow.org/trainjobs/patch",
            "jobset.x-k8s.io/jobsets/get",
            "jobset.x-k8s.io/jobsets/list",
            "jobset.x-k8s.io/jobsets/watch",
            "kueue.x-k8s.io/workloads/get",
            "kueue.x-k8s.io/workloads/list",
            "kueue.x-k8s.io/workloads/watch",
            "kueue.x-k8s.io/workloads/patch",
            "batch.volcano.sh/jobs/get",
            "batch.volcano.sh/jobs/list",
            "batch.volcano.sh/jobs/watch",
            // KAI Scheduler's and Volcano's PodGroups: the preemption cost marks (listed and patched, not watched).
            "scheduling.run.ai/podgroups/get",
            "scheduling.run.ai/podgroups/list",
            "scheduling.run.ai/podgroups/patch",
            "scheduling.volcano.sh/podgroups/get",
            "scheduling.volcano.sh/podgroups/list",
            "scheduling.volcano.sh/podgroups/patch",
            // DRA device taints: ResourceSlices and DeviceTaintRules.
            "resource.k8s.io/resourceslices/get",
            "resource.k8s.io/resourceslices/list",
            "resource.k8s.io/resourceslices/watch",
            "resource.k8s.io/devicetaintrules/get",
            "resource.k8s.io/devicetaintrules/list",
            "resource.k8s.io/devicetaintrules/watch",
            "apiextensions.k8s.io/customresourcedefinitions/get");

    @Test
    void baseGrantsExactlyTheApiCallsLifelineMakes() throws Exception {
        List<Map<String, Object>> docs = render("deploy/k8s/base");
        assertThat(rules(one(docs, "ClusterRole"))).isEqualTo(new TreeSet<>(CLUSTER_RULES));
        // Leader election is a PostgreSQL advisory lock: no namespaced Role, no Lease.
        assertThat(docs).noneMatch(d -> "Role".equals(d.get("kind")));
        Map<String, Object> binding = one(docs, "ClusterRoleBinding");
        assertThat((Object) at(binding, "roleRef", "name")).isEqualTo("lifeline");
        assertThat(binding.toString()).contains("name=lifeline, namespace=lifeline");
    }

    @Test
    void baseDeploymentIsHardenedAndProbed() throws Exception {
        Map<String, Object> deployment = one(render("deploy/k8s/base"), "Deployment");
        assertThat((Object) at(deployment, "spec", "replicas")).isEqualTo(2);
        Map<String, Object> pod = at(deployment, "spec", "template", "spec");
        assertThat((Object) at(pod, "securityContext", "runAsNonRoot")).isEqualTo(true);
        assertThat(pod.get("serviceAccountName")).isEqualTo("lifeline");
        Map<String, Object> c = first(pod.get("containers"));
        assertThat((Object) at(c, "securityContext", "readOnlyRootFilesystem")).isEqualTo(true);
        assertThat((Object) at(c, "securityContext", "allowPrivilegeEscalation"))
                .isEqualTo(false);
        assertThat((Object) at(c, "livenessProbe", "httpGet", "path")).isEqualTo("/q/health/live");
        assertThat((Object) at(c, "readinessProbe", "httpGet", "path")).isEqualTo("/q/health/ready");
        assertThat(c.get("volumeMounts").toString()).contains("mountPath=/tmp");
        assertThat(pod.get("volumes").toString()).contains("{emptyDir={sizeLimit=512Mi}, name=tmp}");
        assertThat(c.get("env").toString()).contains("LIFELINE_ACTIONS_EXECUTOR_ENABLED", "secretKeyRef");
        assertThat(KustomizeTest.<Map<String, Object>>at(c, "resources", "requests"))
                .containsKeys("cpu", "memory");
    }

    @Test
    void productionOverlayUsesExternalDatabaseAndKafkaFromSecrets() throws Exception {
        List<Map<String, Object>> docs = render("deploy/k8s/overlays/production");
        Map<String, Object> c = first(at(one(docs, "Deployment"), "spec", "template", "spec", "containers"));
        String env = c.get("env").toString();
        assertThat(env)
                .contains("{key=jdbc-url, name=lifeline-postgresql}", "{key=bootstrap-servers, name=lifeline-kafka}");
        assertThat(env).doesNotContain("lifeline-database");
        assertThat(kinds(docs))
                .contains("PodDisruptionBudget", "PrometheusRule", "ServiceMonitor")
                .doesNotContain("KafkaTopic");
        assertThat(rules(one(docs, "ClusterRole"))).isEqualTo(new TreeSet<>(CLUSTER_RULES));
    }

    @Test
    void baseDeclaresTopicsMonitorsAndPriorityClasses() throws Exception {
        List<Map<String, Object>> docs = render("deploy/k8s/base");
        Set<String> topics = new TreeSet<>();
        Set<String> monitors = new TreeSet<>();
        for (Map<String, Object> d : docs) {
            if ("KafkaTopic".equals(d.get("kind"))) {
                topics.add((String) at(d, "spec", "topicName"));
            }
            if ("ServiceMonitor".equals(d.get("kind"))) {
                monitors.add((String) at(d, "metadata", "name"));
                if ("lifeline".equals(at(d, "metadata", "name"))) {
                    // /metrics needs a viewer token in production configuration.
                    assertThat((Object) at(first(at(d, "spec", "endpoints")), "authorization", "credentials", "name"))
                            .isEqualTo("lifeline-metrics-token");
                }
            }
        }
        assertThat(topics).contains("lifeline.events", "lifeline.events.dlq", "lifeline.notices", "lifeline.commands");
        assertThat(monitors).containsExactly("dcgm-exporter", "lifeline");
        assertThat(kinds(docs)).contains("NetworkPolicy", "PriorityClass", "ConfigMap", "Service", "ServiceAccount");
    }

    @Test
    void prometheusRuleUsesOnlyMetricsTheCodeRegisters() throws Exception {
        Map<String, Object> rule = one(render("deploy/k8s/base"), "PrometheusRule");
        Set<String> registered = registeredNames();
        assertThat(registered).contains("lifeline_job_checkpoint_age_seconds", "lifeline_actions");
        Set<String> alerts = new TreeSet<>();
        Set<String> recorded = new TreeSet<>();
        Set<String> unknown = new TreeSet<>();
        List<Map<String, Object>> groups = at(rule, "spec", "groups");
        for (Map<String, Object> g : groups) {
            List<Map<String, Object>> rules = at(g, "rules");
            for (Map<String, Object> r : rules) {
                if (r.containsKey("record")) {
                    recorded.add((String) r.get("record"));
                } else {
                    alerts.add((String) r.get("alert"));
                }
            }
        }
        for (Map<String, Object> g : groups) {
            List<Map<String, Object>> rules = at(g, "rules");
            for (Map<String, Object> r : rules) {
                for (String name : PromQl.metricNames((String) r.get("expr"))) {
                    if (!isRegistered(name, registered)
                            && !recorded.contains(name)
                            && !ObjectiveSeries.NAMES.contains(name)) {
                        unknown.add(name + " in " + (r.containsKey("record") ? r.get("record") : r.get("alert")));
                    }
                }
            }
        }
        assertThat(unknown).as("metric names the code does not register").isEmpty();
        assertThat(alerts)
                .contains(
                        "LifelineCheckpointFreshnessBreached",
                        "LifelineRestartLoop",
                        "LifelineFatalXid",
                        "LifelineNoticeNotHandled",
                        "LifelineActionFailed",
                        "LifelineIngestLag",
                        "LifelineDeadLetterSpike",
                        "LifelineLemonNode",
                        "GoodputBudgetFastBurn",
                        "GoodputBudgetSlowBurn");
        assertThat(recorded).contains("lifeline:objective_burn_rate:1h", "lifeline:objective_burn_rate:5m");
        Path file = Path.of("target", "kustomize-test", "rules.yaml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, new Yaml().dump(Map.of("groups", groups)));
        String out = run(List.of(RequiredTool.PROMTOOL.path(), "check", "rules", file.toString()));
        assertThat(out).contains("SUCCESS");
    }

    /** A Prometheus sample name is registered when the code names it, or names it before a suffix the registry adds. */
    private static boolean isRegistered(String sample, Set<String> registered) {
        String s = sample;
        for (String suffix : List.of("_bucket", "_count", "_sum", "_max", "_total", "_seconds")) {
            if (registered.contains(s)) {
                return true;
            }
            if (s.endsWith(suffix)) {
                s = s.substring(0, s.length() - suffix.length());
            }
        }
        return registered.contains(s);
    }

    /** Every "lifeline_..." string literal in the main sources: the names meters are registered under. */
    private static Set<String> registeredNames() throws IOException {
        Set<String> out = new TreeSet<>();
        java.util.regex.Pattern literal = java.util.regex.Pattern.compile("\"(lifeline_[a-z0-9_]+)\"");
        try (Stream<Path> files = Files.walk(Path.of("src", "main", "java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                java.util.regex.Matcher m = literal.matcher(Files.readString(f));
                while (m.find()) {
                    out.add(m.group(1));
                }
            }
        }
        return out;
    }

    @Test
    void evictionGateComponentAddsAWebhookThatNeverBlocksDrainsServedOverTls() throws Exception {
        Path dir = Path.of("target", "kustomize-eviction-gate");
        Files.createDirectories(dir);
        Files.writeString(
                dir.resolve("kustomization.yaml"),
                "apiVersion: kustomize.config.k8s.io/v1beta1\n"
                        + "kind: Kustomization\nresources:\n  - ../../deploy/k8s/base\n"
                        + "components:\n  - ../../deploy/k8s/components/eviction-gate\n");
        List<Map<String, Object>> docs = render(dir.toString());
        Map<String, Object> config = one(docs, "ValidatingWebhookConfiguration");
        Map<String, Object> hook = first(at(config, "webhooks"));
        assertThat((Object) hook.get("failurePolicy")).isEqualTo("Ignore");
        assertThat((Integer) hook.get("timeoutSeconds")).isBetween(1, 10);
        assertThat((Object) hook.get("objectSelector"))
                .as("never matches for pods/eviction")
                .isNull();
        assertThat((Object) at(hook, "namespaceSelector", "matchLabels"))
                .isEqualTo(Map.of("lifeline.io/eviction-gate", "enabled"));
        Map<String, Object> rule = first(hook.get("rules"));
        assertThat((Object) rule.get("resources")).isEqualTo(List.of("pods/eviction"));
        assertThat((Object) rule.get("operations")).isEqualTo(List.of("CREATE"));
        assertThat((Object) at(hook, "clientConfig", "service", "path")).isEqualTo("/admission/v1/evictions");
        String service = at(hook, "clientConfig", "service", "name");
        assertThat(docs).anySatisfy(d -> {
            assertThat(d.get("kind")).isEqualTo("Service");
            assertThat((Object) at(d, "metadata", "name")).isEqualTo(service);
            assertThat((Object) at(d, "metadata", "namespace")).isEqualTo("lifeline");
            assertThat((Object) at(first(at(d, "spec", "ports")), "targetPort")).isEqualTo("https");
        });
        Map<String, Object> cert = one(docs, "Certificate");
        assertThat((Object) at(config, "metadata", "annotations", "cert-manager.io/inject-ca-from"))
                .isEqualTo("lifeline/" + at(cert, "metadata", "name"));
        assertThat((List<Object>) at(cert, "spec", "dnsNames")).contains(service + ".lifeline.svc");
        Map<String, Object> pod = at(one(docs, "Deployment"), "spec", "template", "spec");
        Map<String, Object> container = first(pod.get("containers"));
        assertThat((List<Map<String, Object>>) container.get("ports")).anySatisfy(p -> {
            assertThat(p.get("name")).isEqualTo("https");
            assertThat(p.get("containerPort")).isEqualTo(8443);
        });
        assertThat((List<Map<String, Object>>) container.get("env")).anySatisfy(e -> {
            assertThat(e.get("name")).isEqualTo("LIFELINE_EVICTION_GATE_ENABLED");
            assertThat(e.get("value")).isEqualTo("true");
        });
        // The webhook's own listener: its certificate, and the API server's client certificate required.
        assertThat((List<Map<String, Object>>) container.get("env"))
                .extracting(e -> e.get("name"))
                .contains(
                        "LIFELINE_EVICTION_GATE_LISTENER_PORT",
                        "LIFELINE_EVICTION_GATE_LISTENER_CERTIFICATE_FILE",
                        "LIFELINE_EVICTION_GATE_LISTENER_KEY_FILE",
                        "LIFELINE_EVICTION_GATE_LISTENER_CLIENT_CA_FILE")
                .doesNotContain("QUARKUS_HTTP_SSL_PORT", "LIFELINE_EVICTION_GATE_LISTENER_CLIENT_AUTH");
        assertThat((List<Map<String, Object>>) pod.get("volumes"))
                .anySatisfy(v ->
                        assertThat((Object) at(v, "secret", "secretName")).isEqualTo(at(cert, "spec", "secretName")));
        assertThat((List<Map<String, Object>>) pod.get("volumes"))
                .anySatisfy(v ->
                        assertThat((Object) at(v, "secret", "secretName")).isEqualTo("lifeline-webhook-client-ca"));
        List<Map<String, Object>> ingress = at(one(docs, "NetworkPolicy"), "spec", "ingress");
        assertThat(ingress)
                .anySatisfy(i ->
                        assertThat((Object) at(first(i.get("ports")), "port")).isEqualTo(8443));
    }

    private static List<Map<String, Object>> render(String dir) throws Exception {
        RequiredTool.KUBECTL.file();
        String yaml = run(List.of(KUBECTL, "kustomize", dir));
        List<Map<String, Object>> docs = new ArrayList<>();
        for (Object o : new Yaml(new LoaderOptions()).loadAll(yaml)) {
            if (o instanceof Map<?, ?> m) {
                @SuppressWarnings("unchecked")
                Map<String, Object> doc = (Map<String, Object>) m;
                docs.add(doc);
            }
        }
        assertThat(docs).as("documents rendered from %s", dir).isNotEmpty();
        return docs;
    }

    private static String run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("%s: %s", command, out).isZero();
        return out;
    }

    private static Set<String> rules(Map<String, Object> role) {
        Set<String> out = new TreeSet<>();
        List<Map<String, Object>> rules = at(role, "rules");
        for (Map<String, Object> r : rules) {
            for (Object g : (List<?>) r.get("apiGroups")) {
                for (Object res : (List<?>) r.get("resources")) {
                    for (Object v : (List<?>) r.get("verbs")) {
                        out.add(g + "/" + res + "/" + v);
                    }
                }
            }
        }
        return out;
    }

    private static Map<String, Object> one(List<Map<String, Object>> docs, String kind) {
        List<Map<String, Object>> found =
                docs.stream().filter(d -> kind.equals(d.get("kind"))).toList();
        assertThat(found).as("documents of kind %s", kind).hasSize(1);
        return found.get(0);
    }

    private static Set<String> kinds(List<Map<String, Object>> docs) {
        Set<String> out = new TreeSet<>();
        docs.forEach(d -> out.add((String) d.get("kind")));
        return out;
    }

    @SuppressWarnings("unchecked")
    private static <T> T at(Map<String, Object> doc, String... path) {
        Object o = doc;
        for (String p : path) {
            assertThat(o).as("parent of %s", p).isInstanceOf(Map.class);
            o = ((Map<String, Object>) o).get(p);
        }
        return (T) o;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> first(Object list) {
        assertThat(list).isInstanceOf(List.class);
        return (Map<String, Object>) ((List<?>) list).get(0);
    }
}
