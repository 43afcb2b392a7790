package io.lifeline.bench.goodput;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lifeline.bench.goodput.InterruptionHistory.Cause;
import io.lifeline.domain.job.goodput.GoodputView;

/** The JSON of one size's pair of arms, as {@code bench/goodput.json} holds it. */
final class GoodputReport {

    private GoodputReport() {}

    static ObjectNode toJson(ObjectMapper json, GoodputBench.Pair p) {
        GoodputSetup s = p.setup();
        ObjectNode o = json.createObjectNode();
        o.put("gpus", s.gpus());
        o.put("nodes", s.nodes());
        o.put("spot_nodes", s.spotNodes());
        o.put("days", s.days());
        o.put("seed", s.seed());
        o.put("rate_scale", s.rateScale());
        o.put("notice_s", s.noticeSeconds());
        o.put("step_s", s.stepSeconds());
        o.put("checkpoint_s", s.checkpointSeconds());
        o.put("restart_replacing_node_s", s.nodeRestartSeconds());
        o.put("restart_in_place_s", s.inPlaceRestartSeconds());
        o.put("price_per_gpu_hour", s.pricePerGpuHour());
        ArrayNode sources = o.putArray("sources");
        s.sources().forEach(sources::add);
        o.put("interruptions", p.interruptions());
        o.put("ettr_bound", p.bound());
        o.set("without_lifeline", arm(json, p.without()));
        o.set("with_lifeline", arm(json, p.with()));
        ObjectNode gain = o.putObject("gpu_hours_saved_by_cause");
        gain.put("checkpoint", p.without().checkpointGpuHours() - p.with().checkpointGpuHours());
        for (Cause c : Cause.values()) {
            gain.put(c.wire(), p.without().lostGpuHours(c) - p.with().lostGpuHours(c));
        }
        return o;
    }

    private static ObjectNode arm(ObjectMapper json, ArmResult r) {
        ObjectNode o = json.createObjectNode();
        o.put("ettr", r.ettr());
        o.put("ledger_ettr", r.ledgerEttr());
        o.put("ledger_error_pp", r.ledgerErrorPp());
        o.put("cost_per_useful_gpu_hour", r.costPerUsefulGpuHour());
        o.put("saves", r.saves());
        o.put("final_interval_s", r.finalIntervalSeconds());
        o.put("events", r.events());
        ObjectNode lost = o.putObject("lost_gpu_hours");
        lost.put("checkpoint", r.checkpointGpuHours());
        for (Cause c : Cause.values()) {
            lost.put(c.wire(), r.lostGpuHours(c));
        }
        ObjectNode counts = o.putObject("interruptions");
        for (Cause c : Cause.values()) {
            counts.put(c.wire(), r.interruptions().getOrDefault(c, 0));
        }
        GoodputView l = r.ledger();
        ObjectNode ledger = o.putObject("ledger_seconds");
        ledger.put("wall", l.wallMillis() / 1000.0);
        ledger.put("productive", l.productiveMillis() / 1000.0);
        ledger.put("checkpoint", l.checkpointMillis() / 1000.0);
        ledger.put("lost_rework", l.lostReworkMillis() / 1000.0);
        ledger.put("recovery", l.recoveryMillis() / 1000.0);
        ledger.put("hang", l.hangMillis() / 1000.0);
        ledger.put("rescale", l.rescaleMillis() / 1000.0);
        ledger.put("startup", l.startupMillis() / 1000.0);
        ledger.put("waiting", l.waitingMillis() / 1000.0);
        ObjectNode truth = o.putObject("truth_seconds");
        truth.put("wall", r.wallSeconds());
        truth.put("useful", r.usefulSeconds());
        truth.put("checkpoint", r.checkpointSeconds());
        double rework = 0;
        double down = 0;
        double hang = 0;
        for (double[] v : r.lost().values()) {
            rework += v[0];
            down += v[1];
            hang += v[2];
        }
        truth.put("lost_rework", rework);
        truth.put("recovery", down);
        truth.put("hang", hang);
        ObjectNode actions = o.putObject("actions");
        r.actions().forEach(actions::put);
        o.put("refused", r.refusals().size());
        return o;
    }
}
