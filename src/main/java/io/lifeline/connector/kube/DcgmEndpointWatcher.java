package io.lifeline.connector.kube;

import io.fabric8.kubernetes.api.model.EndpointAddress;
import io.fabric8.kubernetes.api.model.EndpointSubset;
import io.fabric8.kubernetes.api.model.Endpoints;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.lifeline.config.ScrapeConfig;
import io.lifeline.connector.scrape.DcgmScraper;
import io.lifeline.connector.scrape.ScrapeTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Finds dcgm-exporter endpoints through the EndpointSlices (or Endpoints) of its Service, selected by the
 * Service's labels (Kubernetes copies them onto both): every ready address with a {@code nodeName} becomes a
 * scrape target {@code <scheme>://<address>:<metrics port><path>} for that node, and the scraper's discovered set
 * follows every change. Addresses without a node name are skipped: their events would have no subject.
 */
final class DcgmEndpointWatcher {

    private static final Logger LOG = Logger.getLogger(DcgmEndpointWatcher.class);

    private final ScrapeConfig.Kubernetes config;
    private final DcgmScraper scraper;
    private final Map<String, List<ScrapeTarget>> bySource = new ConcurrentHashMap<>();

    DcgmEndpointWatcher(ScrapeConfig.Kubernetes config, DcgmScraper scraper) {
        this.config = config;
        this.scraper = scraper;
    }

    SharedIndexInformer<?> start(KubernetesClient client, long resyncMillis) {
        boolean slices = !"endpoints".equalsIgnoreCase(config.resource().trim());
        if (slices) {
            var op = config.namespace().isPresent()
                    ? client.discovery().v1().endpointSlices().inNamespace(config.namespace().get())
                    : client.discovery().v1().endpointSlices().inAnyNamespace();
            SharedIndexInformer<EndpointSlice> informer = op.withLabelSelector(config.labelSelector())
                    .runnableInformer(resyncMillis);
            informer.addEventHandler(handler(this::targets));
            return informer;
        }
        var op = config.namespace().isPresent() ? client.endpoints().inNamespace(config.namespace().get())
                : client.endpoints().inAnyNamespace();
        SharedIndexInformer<Endpoints> informer = op.withLabelSelector(config.labelSelector()).runnableInformer(resyncMillis);
        informer.addEventHandler(handler(this::targets));
        return informer;
    }

    private <T extends HasMetadata> ResourceEventHandler<T> handler(Function<T, List<ScrapeTarget>> read) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T o) {
                put(o, read.apply(o));
            }

            @Override
            public void onUpdate(T old, T o) {
                put(o, read.apply(o));
            }

            @Override
            public void onDelete(T o, boolean finalStateUnknown) {
                bySource.remove(key(o));
                publish();
            }
        };
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
        return o.getKind() + "/" + o.getMetadata().getNamespace() + "/" + o.getMetadata().getName();
    }

    List<ScrapeTarget> targets(EndpointSlice slice) {
        Integer port = null;
        List<EndpointPort> ports = slice.getPorts() == null ? List.of() : slice.getPorts();
        for (EndpointPort p : ports) {
            if (config.portName().equals(p.getName()) || port == null) {
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
            boolean ready = e.getConditions() == null || !Boolean.FALSE.equals(e.getConditions().getReady());
            if (!ready || e.getNodeName() == null || e.getAddresses() == null || e.getAddresses().isEmpty()) {
                continue;
            }
            add(out, e.getAddresses().get(0), port, e.getNodeName());
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
                if (a.getNodeName() != null && a.getIp() != null) {
                    add(out, a.getIp(), port, a.getNodeName());
                }
            }
        }
        return out;
    }

    private void add(List<ScrapeTarget> out, String address, int port, String node) {
        String host = address.contains(":") ? "[" + address + "]" : address;
        String path = config.path().startsWith("/") ? config.path() : "/" + config.path();
        try {
            out.add(new ScrapeTarget(config.scheme() + "://" + host + ":" + port + path, node, ScrapeTarget.Origin.KUBERNETES));
        } catch (IllegalArgumentException e) {
            LOG.debugf("dcgm-exporter endpoint %s:%d of node %s skipped: %s", address, port, node, e.getMessage());
        }
    }
}
