package io.lifeline.connector.inbound.kube;

import io.fabric8.kubernetes.api.model.EndpointAddress;
import io.fabric8.kubernetes.api.model.EndpointSubset;
import io.fabric8.kubernetes.api.model.Endpoints;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lifeline.config.ScrapeConfig;
import io.lifeline.connector.inbound.scrape.DcgmScraper;
import io.lifeline.connector.inbound.scrape.ScrapeTarget;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Finds dcgm-exporter endpoints through the EndpointSlices (or Endpoints) of its Service, selected by the
 * Service's labels (Kubernetes copies them onto both) and read only in the configured namespaces. Nothing in the
 * object itself is trusted for the node: every ready address must name its pod ({@code targetRef}, in the object's
 * own namespace), the pod is read from the API server, the address must be one of the pod's IPs, and the target's
 * node is the pod's {@code spec.nodeName}. Each such address becomes a scrape target
 * {@code <scheme>://<address>:<metrics port><path>} for that node, and the scraper's discovered set follows every
 * change. Anything else (no pod, another namespace, a pod not yet scheduled, an address the pod does not have) is
 * skipped: whoever can write an EndpointSlice could otherwise report GPU faults on any node.
 */
final class DcgmEndpointWatcher {

    private static final Logger LOG = Logger.getLogger(DcgmEndpointWatcher.class);

    private final ScrapeConfig.Kubernetes config;
    private final DcgmScraper scraper;
    private final Map<String, List<ScrapeTarget>> bySource = new ConcurrentHashMap<>();
    /** Node of a pod by namespace/name/uid: a pod never moves, so a pod whose uid was checked is looked up once. */
    private final Map<String, String> nodeOfPod = new ConcurrentHashMap<>();

    private final Set<String> namespaces;
    private volatile KubernetesClient client;

    DcgmEndpointWatcher(ScrapeConfig.Kubernetes config, DcgmScraper scraper) {
        this.config = config;
        this.scraper = scraper;
        Set<String> ns = new LinkedHashSet<>();
        if (config.namespace().isPresent() && !config.namespace().get().isBlank()) {
            ns.add(config.namespace().get().trim());
        } else {
            config.namespaces().forEach(n -> {
                if (!n.isBlank()) {
                    ns.add(n.trim());
                }
            });
        }
        this.namespaces = Set.copyOf(ns);
    }

    /** The namespaces read; empty means none (discovery finds nothing). */
    Set<String> namespaces() {
        return namespaces;
    }

    SharedIndexInformer<?> start(KubernetesClient client, long resyncMillis) {
        this.client = client;
        if (namespaces.isEmpty()) {
            LOG.warn(
                    "dcgm-exporter discovery has no namespace to read (lifeline.connectors.dcgm.kubernetes.namespaces)");
        }
        // One namespace is watched alone; several through one cluster-wide watch, filtered here by namespace.
        String only = namespaces.size() == 1 ? namespaces.iterator().next() : null;
        boolean slices = !"endpoints".equalsIgnoreCase(config.resource().trim());
        if (slices) {
            var op = only != null
                    ? client.discovery().v1().endpointSlices().inNamespace(only)
                    : client.discovery().v1().endpointSlices().inAnyNamespace();
            SharedIndexInformer<EndpointSlice> informer =
                    op.withLabelSelector(config.labelSelector()).runnableInformer(resyncMillis);
            informer.addEventHandler(handler(this::targets));
            return informer;
        }
        var op = only != null
                ? client.endpoints().inNamespace(only)
                : client.endpoints().inAnyNamespace();
        SharedIndexInformer<Endpoints> informer =
                op.withLabelSelector(config.labelSelector()).runnableInformer(resyncMillis);
        informer.addEventHandler(handler(this::targets));
        return informer;
    }

    private <T extends HasMetadata> ResourceEventHandler<T> handler(Function<T, List<ScrapeTarget>> read) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T o) {
                if (KubeContext.isNamed(o)) {
                    put(o, read(o, read));
                }
            }

            @Override
            public void onUpdate(T old, T o) {
                if (KubeContext.isNamed(o)) {
                    put(o, read(o, read));
                }
            }

            @Override
            public void onDelete(T o, boolean finalStateUnknown) {
                if (KubeContext.isNamed(o)) {
                    bySource.remove(key(o));
                    publish();
                }
            }
        };
    }

    private <T extends HasMetadata> List<ScrapeTarget> read(T o, Function<T, List<ScrapeTarget>> read) {
        if (!namespaces.contains(o.getMetadata().getNamespace())) {
            LOG.debugf("dcgm-exporter discovery: %s ignored, its namespace is not trusted", key(o));
            return List.of();
        }
        return read.apply(o);
    }

    private void put(HasMetadata o, List<ScrapeTarget> targets) {
        List<ScrapeTarget> previous = bySource.put(key(o), targets);
        if (!targets.equals(previous)) {
            publish();
        }
    }

    private synchronized void publish() {
        List<ScrapeTarget> all = new ArrayList<>();
        bySource.values().forEach(all::addAll);
        scraper.replaceDiscovered(all);
        LOG.debugf("dcgm-exporter discovery: %d endpoints", all.size());
    }

    private static String key(HasMetadata o) {
        return o.getKind() + "/" + o.getMetadata().getNamespace() + "/"
                + o.getMetadata().getName();
    }

    List<ScrapeTarget> targets(EndpointSlice slice) {
        Integer port = null;
        List<EndpointPort> ports = slice.getPorts() == null ? List.of() : slice.getPorts();
        for (EndpointPort p : ports) {
            if (p != null && (config.portName().equals(p.getName()) || port == null)) {
                port = p.getPort();
                if (config.portName().equals(p.getName())) {
                    break;
                }
            }
        }
        List<ScrapeTarget> out = new ArrayList<>();
        if (port == null || slice.getEndpoints() == null) {
            return out;
        }
        for (Endpoint e : slice.getEndpoints()) {
            if (e == null) {
                continue;
            }
            boolean ready = e.getConditions() == null
                    || !Boolean.FALSE.equals(e.getConditions().getReady());
            if (!ready || e.getAddresses() == null || e.getAddresses().isEmpty()) {
                continue;
            }
            String address = e.getAddresses().get(0);
            String node = nodeOf(slice, e.getTargetRef(), address);
            if (node != null) {
                add(out, address, port, node);
            }
        }
        return out;
    }

    List<ScrapeTarget> targets(Endpoints endpoints) {
        List<ScrapeTarget> out = new ArrayList<>();
        if (endpoints.getSubsets() == null) {
            return out;
        }
        for (EndpointSubset s : endpoints.getSubsets()) {
            Integer port = null;
            List<io.fabric8.kubernetes.api.model.EndpointPort> ports = s.getPorts() == null ? List.of() : s.getPorts();
            for (var p : ports) {
                if (config.portName().equals(p.getName()) || port == null) {
                    port = p.getPort();
                    if (config.portName().equals(p.getName())) {
                        break;
                    }
                }
            }
            if (port == null || s.getAddresses() == null) {
                continue;
            }
            for (EndpointAddress a : s.getAddresses()) {
                String node = a.getIp() == null ? null : nodeOf(endpoints, a.getTargetRef(), a.getIp());
                if (node != null) {
                    add(out, a.getIp(), port, node);
                }
            }
        }
        return out;
    }

    /**
     * The node the address's pod runs on, read from the pod itself; null when the reference is not a pod of the
     * object's namespace, the pod does not exist (or is another one than referenced), is not scheduled, or does not
     * have this address.
     */
    private String nodeOf(HasMetadata source, ObjectReference ref, String address) {
        String ns = source.getMetadata().getNamespace();
        if (ref == null
                || !"Pod".equals(ref.getKind())
                || ref.getName() == null
                || ref.getNamespace() != null && !ref.getNamespace().equals(ns)) {
            LOG.debugf(
                    "dcgm-exporter endpoint %s in %s skipped: it names no pod of its namespace", address, key(source));
            return null;
        }
        String cacheKey = ns + "/" + ref.getName() + "/" + ref.getUid();
        if (ref.getUid() != null) {
            String known = nodeOfPod.get(cacheKey + "/" + address);
            if (known != null) {
                return known;
            }
        }
        KubernetesClient c = client;
        Pod pod;
        try {
            pod = c == null
                    ? null
                    : c.pods().inNamespace(ns).withName(ref.getName()).get();
        } catch (RuntimeException e) {
            LOG.debugf("dcgm-exporter endpoint %s: pod %s/%s not read: %s", address, ns, ref.getName(), e.getMessage());
            return null;
        }
        if (pod == null
                || pod.getSpec() == null
                || pod.getSpec().getNodeName() == null
                || pod.getSpec().getNodeName().isBlank()
                || ref.getUid() != null
                        && !ref.getUid().equals(pod.getMetadata().getUid())
                || !podIps(pod).contains(address)) {
            LOG.debugf(
                    "dcgm-exporter endpoint %s skipped: pod %s/%s is absent, unscheduled or not at that address",
                    address, ns, ref.getName());
            return null;
        }
        String node = pod.getSpec().getNodeName();
        if (ref.getUid() != null) {
            if (nodeOfPod.size() > 100_000) {
                nodeOfPod.clear();
            }
            nodeOfPod.put(cacheKey + "/" + address, node);
        }
        return node;
    }

    private static Set<String> podIps(Pod pod) {
        Set<String> ips = new HashSet<>();
        if (pod.getStatus() == null) {
            return ips;
        }
        if (pod.getStatus().getPodIP() != null) {
            ips.add(pod.getStatus().getPodIP());
        }
        if (pod.getStatus().getPodIPs() != null) {
            for (PodIP ip : pod.getStatus().getPodIPs()) {
                if (ip.getIp() != null) {
                    ips.add(ip.getIp());
                }
            }
        }
        return ips;
    }

    private void add(List<ScrapeTarget> out, String address, int port, String node) {
        String host = address.contains(":") ? "[" + address + "]" : address;
        String path = config.path().startsWith("/") ? config.path() : "/" + config.path();
        try {
            out.add(new ScrapeTarget(
                    config.scheme() + "://" + host + ":" + port + path, node, ScrapeTarget.Origin.KUBERNETES));
        } catch (IllegalArgumentException e) {
            LOG.debugf("dcgm-exporter endpoint %s:%d of node %s skipped: %s", address, port, node, e.getMessage());
        }
    }
}
