package io.lifeline.connector.inbound.prometheus;

import io.lifeline.config.ColocationConfig;
import io.lifeline.domain.policy.colocation.DemandTrigger;
import io.lifeline.policy.DemandReader;
import jakarta.enterprise.context.ApplicationScoped;

/** Reads {@code prometheus-query} demand triggers from {@code lifeline.colocation.prometheus-url}. */
@ApplicationScoped
public class PrometheusDemandReader implements DemandReader {

    private final PrometheusQueries queries;

    PrometheusDemandReader(ColocationConfig config) {
        this.queries = config.prometheusUrl()
                .filter(u -> !u.isBlank())
                .map(u -> new PrometheusQueries(u, config.prometheusTimeout()))
                .orElse(null);
    }

    @Override
    public boolean serves(DemandTrigger.Source source) {
        return queries != null && source instanceof DemandTrigger.PrometheusQuery;
    }

    @Override
    public double read(DemandTrigger.Source source) throws Exception {
        return queries.value(((DemandTrigger.PrometheusQuery) source).query());
    }
}
