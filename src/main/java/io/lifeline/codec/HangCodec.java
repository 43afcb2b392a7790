package io.lifeline.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.event.TrainerData;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The {@code data} of what hang detection reads and writes: a rank's heartbeat fields in {@code trainer.step_times},
 * {@code trainer.stacks} and {@code job.hang_suspected}. Bounded, since stacks come from arbitrary programs.
 */
final class HangCodec {

    static final int MAX_THREADS = 64;
    static final int MAX_FRAMES = 64;
    static final int MAX_TEXT = 32 * 1024;
    static final int MAX_SUSPECTS = 64;
    static final int MAX_EVIDENCE = 32;
    private static final Pattern PHASE = Pattern.compile("[a-z][a-z0-9_-]{0,31}");
    private static final Pattern KIND = Pattern.compile("training|save|phase|startup|status");

    private HangCodec() {}

    /** A phase name: lower-case, at most 32 characters. */
    static String phase(DataReader d, String field) {
        String p = d.optString(field);
        if (p != null && !PHASE.matcher(p).matches()) {
            throw new InvalidEventException(
                    d.path(field) + ": a phase is a lower-case name of at most 32 letters, digits, '-' or '_', got "
                            + DataReader.abbreviate(p));
        }
        return p;
    }

    static TrainerData.StepTimes stepTimes(DataReader d) {
        long steps = d.reqLong("steps", 0, Long.MAX_VALUE);
        Double median = d.optDouble("medianSeconds", 0, 1e7);
        if (steps > 0 && median == null) {
            throw new InvalidEventException(d.path("medianSeconds") + ": required when steps is above 0");
        }
        return new TrainerData.StepTimes(
                d.reqInt("rank", 0, Integer.MAX_VALUE),
                d.optInt("localRank", 0, 1 << 20),
                d.optString("node"),
                steps,
                d.reqLong("toStep", 0, Long.MAX_VALUE),
                median == null ? 0 : median,
                steps > 0 ? d.optDouble("maxSeconds", 0, 1e7) : null,
                steps > 0 ? d.optDouble("busyMedianSeconds", 0, 1e7) : null,
                d.optDouble("sinceStepSeconds", 0, 1e9),
                phase(d, "phase"),
                d.optDouble("phaseSeconds", 0, 1e9));
    }

    static void encodeStepTimes(TrainerData.StepTimes s, ObjectNode o) {
        o.put("rank", s.rank());
        if (s.localRank() != null) {
            o.put("localRank", s.localRank());
        }
        putOpt(o, "node", s.node());
        o.put("steps", s.steps()).put("toStep", s.toStep());
        if (s.hasSteps()) {
            o.put("medianSeconds", s.medianSeconds());
        }
        putOpt(o, "maxSeconds", s.maxSeconds());
        putOpt(o, "busyMedianSeconds", s.busyMedianSeconds());
        putOpt(o, "sinceStepSeconds", s.sinceStepSeconds());
        putOpt(o, "phase", s.phase());
        putOpt(o, "phaseSeconds", s.phaseSeconds());
    }

    static TrainerData.Stacks stacks(DataReader d) {
        String via = d.optString("via");
        if (via != null && !via.equals("frames") && !via.equals("faulthandler")) {
            throw new InvalidEventException(
                    d.path("via") + ": expected frames or faulthandler, got " + DataReader.abbreviate(via));
        }
        JsonNode arr = d.optArray("threads");
        List<TrainerData.StackThread> threads = new ArrayList<>();
        if (arr != null) {
            if (arr.size() > MAX_THREADS) {
                throw new InvalidEventException(d.path("threads") + ": more than " + MAX_THREADS + " threads");
            }
            for (int i = 0; i < arr.size(); i++) {
                threads.add(thread(arr.get(i), d.path("threads") + "[" + i + "]"));
            }
        }
        String text = text(d);
        if (threads.isEmpty() && text == null) {
            throw new InvalidEventException(d.path("threads") + ": required (or text): a capture with no stack");
        }
        return new TrainerData.Stacks(
                d.reqString("requestId"),
                d.reqInt("rank", 0, Integer.MAX_VALUE),
                d.optInt("localRank", 0, 1 << 20),
                d.optString("node"),
                d.optInt("pid", 0, Integer.MAX_VALUE),
                d.optLong("step", 0, Long.MAX_VALUE),
                phase(d, "phase"),
                d.optDouble("sinceStepSeconds", 0, 1e9),
                via == null ? "frames" : via,
                threads,
                text);
    }

    /** The raw dump: longer than the catalogue's other strings, so it is checked here. */
    private static String text(DataReader d) {
        JsonNode t = d.raw("text");
        if (t == null) {
            return null;
        }
        if (!t.isTextual()) {
            throw new InvalidEventException(d.path("text") + ": expected a string, got " + DataReader.describe(t));
        }
        String s = t.textValue();
        if (s.length() > MAX_TEXT) {
            throw new InvalidEventException(d.path("text") + ": longer than " + MAX_TEXT + " characters");
        }
        return DataReader.checkedUnbounded(d.path("text"), s);
    }

    private static TrainerData.StackThread thread(JsonNode n, String where) {
        if (n == null || !n.isObject()) {
            throw new InvalidEventException(where + ": expected an object, got " + DataReader.describe(n));
        }
        DataReader t = new DataReader(n, where + ".");
        JsonNode fs = t.reqArray("frames");
        if (fs.size() > MAX_FRAMES) {
            throw new InvalidEventException(t.path("frames") + ": more than " + MAX_FRAMES + " frames");
        }
        List<TrainerData.StackFrame> frames = new ArrayList<>(fs.size());
        for (int i = 0; i < fs.size(); i++) {
            JsonNode f = fs.get(i);
            if (!f.isObject()) {
                throw new InvalidEventException(
                        t.path("frames") + "[" + i + "]: expected an object, got " + DataReader.describe(f));
            }
            DataReader fr = new DataReader(f, t.path("frames") + "[" + i + "].");
            frames.add(new TrainerData.StackFrame(
                    fr.reqString("file"), fr.reqInt("line", 0, Integer.MAX_VALUE), fr.reqString("function")));
        }
        String name = t.optString("name");
        return new TrainerData.StackThread(
                name == null ? "?" : name, t.optBool("main", false), t.optBool("agent", false), frames);
    }

    static void encodeStacks(TrainerData.Stacks s, ObjectNode o) {
        o.put("requestId", s.requestId()).put("rank", s.rank());
        if (s.localRank() != null) {
            o.put("localRank", s.localRank());
        }
        putOpt(o, "node", s.node());
        if (s.pid() != null) {
            o.put("pid", s.pid());
        }
        if (s.step() != null) {
            o.put("step", s.step());
        }
        putOpt(o, "phase", s.phase());
        putOpt(o, "sinceStepSeconds", s.sinceStepSeconds());
        o.put("via", s.via());
        ArrayNode ts = o.putArray("threads");
        for (TrainerData.StackThread t : s.threads()) {
            ObjectNode to =
                    ts.addObject().put("name", t.name()).put("main", t.main()).put("agent", t.agent());
            ArrayNode fs = to.putArray("frames");
            for (TrainerData.StackFrame f : t.frames()) {
                fs.addObject().put("file", f.file()).put("line", f.line()).put("function", f.function());
            }
        }
        putOpt(o, "text", s.text());
    }

    static JobData.HangSuspected hangSuspected(DataReader d) {
        String kind = d.reqString("kind");
        if (!KIND.matcher(kind).matches()) {
            throw new InvalidEventException(d.path("kind") + ": expected training, save, phase, startup or status, got "
                    + DataReader.abbreviate(kind));
        }
        Instant since = d.optInstant("since");
        if (since == null) {
            throw new InvalidEventException(d.path("since") + ": required");
        }
        List<JobData.HangSuspect> suspects = new ArrayList<>();
        JsonNode arr = d.optArray("suspects");
        if (arr != null) {
            if (arr.size() > MAX_SUSPECTS) {
                throw new InvalidEventException(d.path("suspects") + ": more than " + MAX_SUSPECTS + " entries");
            }
            for (int i = 0; i < arr.size(); i++) {
                JsonNode n = arr.get(i);
                if (!n.isObject()) {
                    throw new InvalidEventException(
                            d.path("suspects") + "[" + i + "]: expected an object, got " + DataReader.describe(n));
                }
                DataReader r = new DataReader(n, d.path("suspects") + "[" + i + "].");
                suspects.add(new JobData.HangSuspect(
                        r.reqInt("rank", 0, Integer.MAX_VALUE),
                        r.optString("node"),
                        r.optString("gpu"),
                        r.optLong("lastStep", 0, Long.MAX_VALUE),
                        r.reqString("why")));
            }
        }
        List<String> evidence = new ArrayList<>();
        JsonNode ev = d.optArray("evidence");
        if (ev != null) {
            if (ev.size() > MAX_EVIDENCE) {
                throw new InvalidEventException(d.path("evidence") + ": more than " + MAX_EVIDENCE + " entries");
            }
            for (int i = 0; i < ev.size(); i++) {
                JsonNode n = ev.get(i);
                if (!n.isTextual()) {
                    throw new InvalidEventException(
                            d.path("evidence") + "[" + i + "]: expected a string, got " + DataReader.describe(n));
                }
                evidence.add(DataReader.checked(d.path("evidence") + "[" + i + "]", n.textValue()));
            }
        }
        return new JobData.HangSuspected(
                kind,
                since,
                d.reqDouble("stalledSeconds", 0, 1e9),
                d.reqDouble("thresholdSeconds", 0, 1e9),
                d.optString("basis"),
                phase(d, "phase"),
                suspects,
                evidence);
    }

    static void encodeHangSuspected(JobData.HangSuspected h, ObjectNode o) {
        o.put("kind", h.kind()).put("since", h.since().toString());
        o.put("stalledSeconds", h.stalledSeconds()).put("thresholdSeconds", h.thresholdSeconds());
        putOpt(o, "basis", h.basis());
        putOpt(o, "phase", h.phase());
        ArrayNode ss = o.putArray("suspects");
        for (JobData.HangSuspect s : h.suspects()) {
            ObjectNode so = ss.addObject().put("rank", s.rank());
            putOpt(so, "node", s.node());
            putOpt(so, "gpu", s.gpu());
            if (s.lastStep() != null) {
                so.put("lastStep", s.lastStep());
            }
            so.put("why", s.why());
        }
        ArrayNode ev = o.putArray("evidence");
        h.evidence().forEach(ev::add);
    }

    private static void putOpt(ObjectNode o, String field, String v) {
        if (v != null) {
            o.put(field, v);
        }
    }

    private static void putOpt(ObjectNode o, String field, Double v) {
        if (v != null) {
            o.put(field, v);
        }
    }
}
