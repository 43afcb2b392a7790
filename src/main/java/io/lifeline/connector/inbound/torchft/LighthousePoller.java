package io.lifeline.connector.inbound.torchft;

import io.lifeline.domain.event.ApplyOutcome;
import io.lifeline.domain.event.Event;
import io.lifeline.domain.event.EventType;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.job.JobDetail;
import io.lifeline.domain.job.JobFilter;
import io.lifeline.domain.job.JobSummary;
import io.lifeline.eventlog.Leadership;
import io.lifeline.ingest.IngestGateway;
import io.lifeline.platform.Threads;
import io.lifeline.runtime.IngestOpened;
import io.lifeline.runtime.LiveModel;
import io.lifeline.runtime.ModelRuntime;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * Every {@code lifeline.connectors.torchft.interval}, on the leader, reads the Lighthouse of each TorchFT job the model
 * knows ({@code job.submitted} with {@code healsItself.endpoint}) and writes each quorum with other replica groups as
 * the job's {@code trainer.rendezvous} ({@link QuorumMembership}). A replica's node is its pod's node when the
 * Kubernetes connector is on (the pod named as the manager's host, in the job's namespace), else its host.
 */
@ApplicationScoped
public class LighthousePoller {

    private static final Logger LOG = Logger.getLogger(LighthousePoller.class);

    private final TorchFtConfig config;
    private final ReplicaNodes nodes;
    private final ModelRuntime runtime;
    private final IngestGateway gateway;
    private final Leadership leadership;
    private final Clock clock;
    /** TorchFT jobs and their Lighthouse, as the model learnt them. */
    private final Map<String, String> lighthouses = new ConcurrentHashMap<>();
    /** The replica ids last shown per job. */
    private final Map<String, List<String>> shown = new HashMap<>();

    private HttpClient http;
    private ScheduledExecutorService timer;

    LighthousePoller(
            TorchFtConfig config,
            ReplicaNodes nodes,
            ModelRuntime runtime,
            IngestGateway gateway,
            Leadership leadership,
            Clock clock) {
        this.config = config;
        this.nodes = nodes;
        this.runtime = runtime;
        this.gateway = gateway;
        this.leadership = leadership;
        this.clock = clock;
    }

    @SuppressWarnings("FutureReturnValueIgnored") // pollSafely() catches and logs its own failures
    synchronized void onOpened(@Observes IngestOpened opened) {
        if (!config.enabled() || timer != null) {
            return;
        }
        http = HttpClient.newBuilder().connectTimeout(config.timeout()).build();
        runtime.addApplyListener(this::onApplied);
        try {
            runtime.read(m -> {
                        for (JobSummary j : m.jobs().list(JobFilter.all())) {
                            m.jobs()
                                    .detail(j.name())
                                    .map(JobDetail::healsItself)
                                    .filter(h -> h.endpoint() != null)
                                    .ifPresent(h -> lighthouses.put(j.name(), h.endpoint()));
                        }
                        return null;
                    })
                    .get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.warnf("TorchFT: the jobs known so far were not read: %s", e.toString());
        }
        long every = Math.max(1000, config.interval().toMillis());
        timer = new ScheduledThreadPoolExecutor(1, Threads.daemon("lifeline-torchft"));
        timer.scheduleWithFixedDelay(this::pollSafely, every, every, TimeUnit.MILLISECONDS);
        LOG.infof("TorchFT Lighthouses polled every %s", config.interval());
    }

    /** On the model thread: learns TorchFT jobs from their submissions, forgets them when they end. */
    private void onApplied(Event e, ApplyOutcome outcome, LiveModel model) {
        if (e.data() instanceof JobData.Submitted s
                && s.healsItself() != null
                && s.healsItself().endpoint() != null) {
            lighthouses.put(e.subject(), s.healsItself().endpoint());
        } else if (e.type() == EventType.JOB_FINISHED) {
            lighthouses.remove(e.subject());
        }
    }

    private void pollSafely() {
        try {
            pollNow();
        } catch (RuntimeException e) {
            // The next round tries again; an exception must not cancel the schedule.
            LOG.warnf("TorchFT: poll failed: %s", e.toString());
        }
    }

    /** One round now (on the leader only): the membership events written. */
    public synchronized List<Event> pollNow() {
        if (!leadership.isLeader()) {
            return List.of();
        }
        List<Event> out = changes();
        if (out.isEmpty()) {
            return out;
        }
        try {
            gateway.submit(out)
                    .thenCompose(receipt -> receipt.applied())
                    .toCompletableFuture()
                    .get(30, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        } catch (Exception ex) {
            // Shown again next round: a duplicate is dropped by its id.
            out.forEach(ev -> shown.remove(ev.subject()));
            LOG.warnf("TorchFT: membership not written: %s", ex.toString());
            return List.of();
        }
        return out;
    }

    /** Reads every Lighthouse: the membership of each quorum not shown yet (now taken as shown). */
    synchronized List<Event> changes() {
        if (http == null) {
            http = HttpClient.newBuilder().connectTimeout(config.timeout()).build();
        }
        List<Event> out = new ArrayList<>();
        for (Map.Entry<String, String> e : Map.copyOf(lighthouses).entrySet()) {
            String job = e.getKey();
            LighthouseStatus status = read(job, e.getValue());
            if (status == null) {
                continue;
            }
            String ns = job.substring(0, Math.max(0, job.indexOf('/')));
            Event rdzv = QuorumMembership.rendezvous(
                    job, status, shown.get(job), host -> nodes.node(ns, host), clock.instant());
            if (rdzv != null) {
                out.add(rdzv);
                shown.put(job, status.quorum().replicaIds());
            }
        }
        return out;
    }

    /** A job known as TorchFT's, with its Lighthouse (for tests and a start before the model knew it). */
    public void watch(String job, String lighthouse) {
        lighthouses.put(job, lighthouse);
    }

    private LighthouseStatus read(String job, String lighthouse) {
        String base = lighthouse.endsWith("/") ? lighthouse.substring(0, lighthouse.length() - 1) : lighthouse;
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(base + "/status"))
                            .timeout(config.timeout())
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                LOG.debugf("TorchFT %s: Lighthouse %s answered %d", job, base, r.statusCode());
                return null;
            }
            return LighthouseStatus.parse(r.body());
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return null;
        } catch (Exception ex) {
            LOG.debugf("TorchFT %s: Lighthouse %s not read: %s", job, base, ex.toString());
            return null;
        }
    }

    @PreDestroy
    synchronized void stop() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
