package io.lifeline.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lifeline.domain.event.JobData;
import io.lifeline.domain.job.recovery.Remedy;
import io.lifeline.domain.job.recovery.Verdict;
import io.lifeline.domain.support.WireEnum;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The wire form of {@code job.recovery_advised} and {@code job.recovery_checked}. */
final class RecoveryCodec {

    private static final int MAX_EVIDENCE = 32;

    private RecoveryCodec() {}

    static JobData.RecoveryAdvised advised(DataReader d) {
        String remedy = d.reqString("remedy");
        if (WireEnum.parse(Remedy.class, remedy).isEmpty()) {
            throw new InvalidEventException(d.path("remedy")
                    + ": expected restart-in-place, replace-failed-pods, restart-excluding-node, shrink-to-survivors or"
                    + " stop-and-page, got "
                    + DataReader.abbreviate(remedy));
        }
        String mode = d.reqString("mode");
        if (!"on".equals(mode) && !"dry-run".equals(mode)) {
            throw new InvalidEventException(
                    d.path("mode") + ": expected on or dry-run, got " + DataReader.abbreviate(mode));
        }
        Instant deadline = d.optInstant("deadline");
        if (deadline == null) {
            throw new InvalidEventException(d.path("deadline") + ": required");
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
        return new JobData.RecoveryAdvised(
                d.reqString("incident"),
                d.reqInt("rung", 1, 100),
                remedy,
                d.optString("node"),
                d.reqString("rule"),
                d.reqString("rulesVersion"),
                evidence,
                d.reqString("expected"),
                deadline,
                mode);
    }

    static JobData.RecoveryChecked checked(DataReader d) {
        String verdict = d.reqString("verdict");
        if (!Verdict.VERIFIED.wire().equals(verdict) && !Verdict.FAILED.wire().equals(verdict)) {
            throw new InvalidEventException(
                    d.path("verdict") + ": expected verified or failed, got " + DataReader.abbreviate(verdict));
        }
        return new JobData.RecoveryChecked(
                d.reqString("incident"), d.reqInt("rung", 1, 100), verdict, d.optString("reason"));
    }

    static void encodeAdvised(JobData.RecoveryAdvised r, ObjectNode o) {
        o.put("incident", r.incident()).put("rung", r.rung()).put("remedy", r.remedy());
        if (r.node() != null) {
            o.put("node", r.node());
        }
        o.put("rule", r.rule()).put("rulesVersion", r.rulesVersion());
        ArrayNode ev = o.putArray("evidence");
        r.evidence().forEach(ev::add);
        o.put("expected", r.expected()).put("deadline", r.deadline().toString()).put("mode", r.mode());
    }

    static void encodeChecked(JobData.RecoveryChecked r, ObjectNode o) {
        o.put("incident", r.incident()).put("rung", r.rung()).put("verdict", r.verdict());
        if (r.reason() != null) {
            o.put("reason", r.reason());
        }
    }
}
