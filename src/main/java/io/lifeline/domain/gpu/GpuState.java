package io.lifeline.domain.gpu;

import io.lifeline.domain.event.GpuData;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The hot, mutable state of one GPU: its latest sample in primitives (NaN / {@link #NO_DATA} mean no data,
 * never zero), its XID verdict and a capped XID history. A few hundred bytes per GPU. Not thread-safe: the
 * owner applies events for one node from one thread and guards reads; callers outside the model only ever
 * see {@link GpuView} snapshots.
 */
public final class GpuState {

    /** Every whole number below this is a float. */
    private static final float WHOLE_EXACT = 16_777_216f;

    /** Marks a counter that has never been reported. */
    static final long NO_DATA = Long.MIN_VALUE;
    /** Marks "no XID value known". */
    static final int NO_XID = -1;
    /** An exporter last-XID change to the code an xid event already reported this recently is the same error. */
    static final long SAME_XID_WINDOW_MILLIS = 5 * 60_000L;

    private final String uuid;
    private final short index;
    private final long firstSeenMillis;
    private String model;
    private String pod;
    private String namespace;
    private long sampledMillis = Long.MIN_VALUE;
    float utilization = Float.NaN;
    float memoryUsed = Float.NaN;
    float memoryFree = Float.NaN;
    float temperature = Float.NaN;
    float power = Float.NaN;
    long eccSbe = NO_DATA;
    long eccDbe = NO_DATA;
    long rowRemapFailures = NO_DATA;
    long nvlinkErrors = NO_DATA;
    private long nvlinkMillis = Long.MIN_VALUE;
    float nvlinkPerMinute = Float.NaN;
    private int exporterXid = NO_XID;
    private byte xidHealth;
    private int xidCause = NO_XID;
    private byte verdict;
    private XidHistory history;
    private DeviceReports devices;
    private boolean deviceFailed;

    /**
     * @param uuid             GPU UUID
     * @param index            index on its node
     * @param firstSeenMillis  time of the first event about it
     */
    public GpuState(String uuid, int index, long firstSeenMillis) {
        this.uuid = Objects.requireNonNull(uuid, "uuid");
        this.index = (short) index;
        this.firstSeenMillis = firstSeenMillis;
    }

    public String uuid() {
        return uuid;
    }

    public int index() {
        return index;
    }

    /** Time of the first event about this GPU. */
    public long firstSeenMillis() {
        return firstSeenMillis;
    }

    /** The current verdict. */
    public GpuHealth health() {
        return GpuHealth.ofOrdinal(verdict);
    }

    GpuHealth xidHealth() {
        return GpuHealth.ofOrdinal(xidHealth);
    }

    int xidCause() {
        return xidCause;
    }

    /** What Kubernetes reported of this GPU as a device, null when nothing. */
    DeviceReports devices() {
        return devices;
    }

    /**
     * Applies what Kubernetes says of this GPU as a device, reported at {@code millis}.
     *
     * @return STALE, UNCHANGED or CHANGED; {@link #deviceReportFailed} says whether it turned the verdict FAILED
     */
    public DeviceReports.Outcome applyDevice(GpuData.DeviceHealth d, long millis, GpuHealthRules rules) {
        if (devices == null) {
            devices = new DeviceReports();
        }
        DeviceReports.Outcome o = devices.apply(d, millis);
        deviceFailed = o == DeviceReports.Outcome.CHANGED && updateVerdict(rules);
        return o;
    }

    /** Whether the latest {@link #applyDevice} turned the verdict into FAILED. */
    public boolean deviceReportFailed() {
        return deviceFailed;
    }

    /** What Kubernetes says of this GPU as a device, null when it said nothing. */
    public DeviceView device() {
        return devices == null ? null : devices.view();
    }

    /**
     * Applies a sample taken at {@code millis}. Older or same-time samples are ignored (last writer wins).
     *
     * @param model      the sample's model name, interned by the caller (null keeps the known one)
     * @param lifeStart  when the node's current life began: XIDs from before it are ignored
     * @return true when this sample turned the verdict into FAILED
     */
    public boolean applySample(GpuData.Sample s, long millis, String model, GpuHealthRules rules, long lifeStart) {
        if (millis <= sampledMillis) {
            return false;
        }
        sampledMillis = millis;
        if (model != null) {
            this.model = model;
        }
        if (!Objects.equals(pod, s.pod())) {
            pod = s.pod();
        }
        if (!Objects.equals(namespace, s.namespace())) {
            namespace = s.namespace();
        }
        utilization = gauge(s.utilizationPercent());
        memoryUsed = gauge(s.memoryUsedMiB());
        memoryFree = gauge(s.memoryFreeMiB());
        temperature = gauge(s.temperatureCelsius());
        power = gauge(s.powerWatts());
        // Error counters keep their last known value when a series is missing: evidence must not vanish.
        eccSbe = counter(s.eccSbeVolatile(), eccSbe);
        eccDbe = counter(s.eccDbeVolatile(), eccDbe);
        rowRemapFailures = counter(s.rowRemapFailures(), rowRemapFailures);
        applyNvlink(s.nvlinkErrors(), millis);
        applyExporterXid(s.lastXid(), millis, rules, lifeStart);
        return updateVerdict(rules);
    }

    /** When the newest sample applied was taken (epoch ms), {@link Long#MIN_VALUE} before the first. */
    public long sampledMillis() {
        return sampledMillis;
    }

    /** Whether the GPU holds this XID at this time already (a repeat changes nothing). */
    public boolean knowsXid(int xid, long millis) {
        return history != null && history.contains(millis, xid);
    }

    /**
     * Applies an XID reported at {@code millis}; a duplicate (same time and code) changes nothing.
     *
     * @return true when this XID turned the verdict into FAILED
     */
    public boolean applyXid(int xid, long millis, GpuHealthRules rules, long lifeStart) {
        recordXid(xid, millis, rules, lifeStart);
        return updateVerdict(rules);
    }

    /** The node came back as a new life (re-registered after reboot or replacement): XID verdicts are cleared. */
    public void startNewLife(GpuHealthRules rules) {
        xidHealth = 0;
        xidCause = NO_XID;
        updateVerdict(rules);
    }

    /** Why the GPU has its current verdict, for operators; null when healthy. */
    public String reason(GpuHealthRules rules) {
        return rules.describe(rules.evaluate(this), this);
    }

    /** A read-only snapshot. */
    public GpuView view(String node, GpuHealthRules rules) {
        return new GpuView(
                node,
                uuid,
                index,
                model,
                sampledMillis == Long.MIN_VALUE ? null : Instant.ofEpochMilli(sampledMillis),
                boxed(utilization),
                boxed(memoryUsed),
                boxed(memoryFree),
                boxed(temperature),
                boxed(power),
                boxed(eccSbe),
                boxed(eccDbe),
                boxed(rowRemapFailures),
                boxed(nvlinkErrors),
                exporterXid == NO_XID ? null : exporterXid,
                pod,
                namespace,
                health(),
                reason(rules),
                rules.evaluate(this).source(),
                device());
    }

    /** This GPU's state as plain values, for a checkpoint of the model. */
    public SavedGpu save() {
        List<Long> times = history == null ? List.of() : history.times();
        List<Integer> codes = history == null ? List.of() : history.codes();
        return new SavedGpu(
                uuid,
                index,
                firstSeenMillis,
                model,
                pod,
                namespace,
                sampledMillis,
                utilization,
                memoryUsed,
                memoryFree,
                temperature,
                power,
                eccSbe,
                eccDbe,
                rowRemapFailures,
                nvlinkErrors,
                nvlinkMillis,
                nvlinkPerMinute,
                exporterXid,
                GpuHealth.ofOrdinal(xidHealth),
                xidCause,
                GpuHealth.ofOrdinal(verdict),
                times,
                codes,
                devices == null ? null : devices.save());
    }

    /**
     * A GPU in the state {@link #save()} gave; the verdict is taken as saved, not evaluated again.
     *
     * @param model  the model name, interned by the caller
     */
    public static GpuState restore(SavedGpu s, String model) {
        GpuState g = new GpuState(s.uuid(), s.index(), s.firstSeenMillis());
        g.model = model;
        g.pod = s.pod();
        g.namespace = s.namespace();
        g.sampledMillis = s.sampledMillis();
        g.utilization = s.utilization();
        g.memoryUsed = s.memoryUsed();
        g.memoryFree = s.memoryFree();
        g.temperature = s.temperature();
        g.power = s.power();
        g.eccSbe = s.eccSbe();
        g.eccDbe = s.eccDbe();
        g.rowRemapFailures = s.rowRemapFailures();
        g.nvlinkErrors = s.nvlinkErrors();
        g.nvlinkMillis = s.nvlinkMillis();
        g.nvlinkPerMinute = s.nvlinkPerMinute();
        g.exporterXid = s.exporterXid();
        g.xidHealth = (byte) s.xidHealth().ordinal();
        g.xidCause = s.xidCause();
        g.verdict = (byte) s.verdict().ordinal();
        g.history = s.xidTimes().isEmpty() ? null : XidHistory.of(s.xidTimes(), s.xidCodes());
        g.devices = s.devices() == null ? null : DeviceReports.restore(s.devices());
        return g;
    }

    /** The retained XID history, oldest first. */
    public List<XidOccurrence> xids(XidPolicy policy) {
        List<XidOccurrence> out = new ArrayList<>();
        if (history == null) {
            return out;
        }
        for (int i : history.chronological()) {
            XidRule r = policy.rule(history.codeAt(i));
            out.add(new XidOccurrence(
                    uuid,
                    index,
                    Instant.ofEpochMilli(history.timeAt(i)),
                    r.xid(),
                    r.description(),
                    r.action(),
                    r.health()));
        }
        return out;
    }

    private void applyNvlink(Long value, long millis) {
        if (value == null) {
            nvlinkPerMinute = Float.NaN;
            return;
        }
        long v = value;
        if (nvlinkErrors != NO_DATA && v >= nvlinkErrors && millis > nvlinkMillis) {
            nvlinkPerMinute = (float) ((v - nvlinkErrors) * 60_000.0 / (millis - nvlinkMillis));
        } else {
            // First value, or the counter was reset (driver reload): no rate yet.
            nvlinkPerMinute = Float.NaN;
        }
        nvlinkErrors = v;
        nvlinkMillis = millis;
    }

    /** DCGM_FI_DEV_XID_ERRORS is the last XID seen, not a count: only a change of value is a new XID. */
    private void applyExporterXid(Integer value, long millis, GpuHealthRules rules, long lifeStart) {
        if (value == null || value == exporterXid) {
            return;
        }
        exporterXid = value;
        if (value == 0 || reportedRecently(value, millis)) {
            return;
        }
        recordXid(value, millis, rules, lifeStart);
    }

    private boolean reportedRecently(int xid, long millis) {
        if (history == null) {
            return false;
        }
        int n = history.newest();
        return history.codeAt(n) == xid && Math.abs(millis - history.timeAt(n)) <= SAME_XID_WINDOW_MILLIS;
    }

    private void recordXid(int xid, long millis, GpuHealthRules rules, long lifeStart) {
        if (millis < lifeStart) {
            return;
        }
        if (history == null) {
            history = new XidHistory();
        }
        if (!history.add(millis, xid)) {
            return;
        }
        GpuHealth impact = rules.policy().rule(xid).health();
        if (impact.ordinal() > xidHealth) {
            xidHealth = (byte) impact.ordinal();
            xidCause = xid;
        }
    }

    private boolean updateVerdict(GpuHealthRules rules) {
        GpuHealth now = rules.evaluate(this).health();
        boolean becameFailed = now == GpuHealth.FAILED && verdict != GpuHealth.FAILED.ordinal();
        verdict = (byte) now.ordinal();
        return becameFailed;
    }

    private static float gauge(Double d) {
        return d == null ? Float.NaN : d.floatValue();
    }

    private static long counter(Long v, long previous) {
        return v == null ? previous : v;
    }

    private static Double boxed(float f) {
        return Float.isNaN(f) ? null : decimal(f);
    }

    /**
     * The float's decimal form as a double, so 40.979 reads back as 40.979, not 40.97900009. Readings are mostly whole
     * numbers or have a few decimals, found here without printing and parsing the float (which the snapshot did for
     * every reading of every changed GPU): a whole number is exact in both types; and while floats near {@code f} are
     * closer together than numbers of k decimals, at most one number of k decimals rounds to {@code f}, so the first k
     * (1 to 3) for which one does gives the float's shortest decimal form.
     */
    static double decimal(float f) {
        if (f == Math.rint(f) && Math.abs(f) < WHOLE_EXACT) {
            return f;
        }
        float spacing = Math.ulp(f);
        for (double scale = 10; scale <= 1000 && spacing * scale < 1; scale *= 10) {
            double d = Math.round(f * scale) / scale;
            if ((float) d == f) {
                return d;
            }
        }
        return Double.parseDouble(Float.toString(f));
    }

    private static Long boxed(long v) {
        return v == NO_DATA ? null : v;
    }
}
