package io.lifeline.policy;

import io.lifeline.domain.policy.PolicyMode;
import io.lifeline.domain.policy.PolicyName;
import io.lifeline.domain.policy.PolicySettings;
import io.lifeline.domain.replay.Counterfactual;
import io.lifeline.domain.replay.FleetCounterfactual;
import io.lifeline.domain.replay.JobCounterfactual;
import io.lifeline.runtime.CounterfactualService;
import io.lifeline.security.Scope;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/**
 * What the notice policy ({@code notice-checkpoint-drain}) gained on the recent jobs a scope may see: their ETTR as
 * measured and without the policy, from the replays {@link CounterfactualService} keeps ready. Only jobs the policy
 * acts on now (mode {@code on} for their namespace and pool) count: in {@code dry-run} or {@code off} Lifeline did not
 * act, and the ledger already is the history without it. Cheap: it sums at most
 * {@code lifeline.whatif.counterfactual-jobs} rows.
 */
@ApplicationScoped
public class NoticePolicyGain {

    private final CounterfactualService counterfactuals;
    private final DefaultPolicyService policies;

    NoticePolicyGain(CounterfactualService counterfactuals, DefaultPolicyService policies) {
        this.counterfactuals = counterfactuals;
        this.policies = policies;
    }

    /** The gain over the jobs of {@code scope}. */
    public FleetCounterfactual of(Scope scope) {
        PolicySettings settings = policies.engine().settings();
        PolicyMode mode = settings.entry(PolicyName.NOTICE_CHECKPOINT_DRAIN).mode();
        CounterfactualService.Latest latest = counterfactuals.latest();
        if (latest.computedAt() == null) {
            return FleetCounterfactual.none(mode.wire());
        }
        List<JobCounterfactual> visible = latest.jobs().stream()
                .filter(j -> scope.allowsNamespace(j.namespace()))
                .toList();
        return Counterfactual.fleet(
                visible,
                latest.computedAt(),
                (ns, pool) -> settings.modeFor(PolicyName.NOTICE_CHECKPOINT_DRAIN, ns, pool) == PolicyMode.ON,
                mode.wire());
    }
}
