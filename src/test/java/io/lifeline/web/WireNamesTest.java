package io.lifeline.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import io.lifeline.domain.fleet.reliability.GroupBy;
import io.lifeline.domain.job.JobState;
import io.lifeline.domain.job.incident.IncidentCause;
import io.lifeline.domain.job.spot.CoordinatorRole;
import io.lifeline.platform.Json;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Answers write every wire enum by its wire name, as values, in collections and as map keys, and read it back from
 * the wire name or from the Java constant earlier releases wrote.
 */
class WireNamesTest {

    record Answer(JobState state, Map<IncidentCause, Integer> byCause, Set<CoordinatorRole> roles, GroupBy groupBy) {}

    private final ObjectMapper json = Json.configure(new ObjectMapper()).registerModule(WireNames.module());

    @Test
    void valuesKeysAndElementsGoOutByTheirWireNames() throws Exception {
        Answer a = new Answer(
                JobState.RUNNING,
                Map.of(IncidentCause.SPOT_RECLAIM, 2),
                EnumSet.of(CoordinatorRole.RANK_0),
                GroupBy.INSTANCE_TYPE);
        assertThat(json.writeValueAsString(a))
                .isEqualTo("{\"state\":\"running\",\"byCause\":{\"spot-reclaim\":2},"
                        + "\"roles\":[\"rank-0\"],\"groupBy\":\"instanceType\"}");
        assertThat(json.readValue(json.writeValueAsString(a), Answer.class)).isEqualTo(a);
    }

    @Test
    void whatEarlierReleasesWroteIsStillRead() throws Exception {
        Answer old = json.readValue(
                "{\"state\":\"RUNNING\",\"byCause\":{\"SPOT_RECLAIM\":2},\"roles\":[\"RANK_0\"],"
                        + "\"groupBy\":\"INSTANCE_TYPE\"}",
                Answer.class);
        assertThat(old)
                .isEqualTo(new Answer(
                        JobState.RUNNING,
                        Map.of(IncidentCause.SPOT_RECLAIM, 2),
                        Set.of(CoordinatorRole.RANK_0),
                        GroupBy.INSTANCE_TYPE));
        assertThat(json.readValue(
                        "[\"Recovering\",\"recovering\",\"RECOVERING\"]", new TypeReference<List<JobState>>() {}))
                .containsOnly(JobState.RECOVERING);
    }

    @Test
    void anUnknownNameIsRefusedWithTheNamesThatWouldDo() {
        assertThatThrownBy(() -> json.readValue("{\"state\":\"runing\"}", Answer.class))
                .isInstanceOf(InvalidFormatException.class)
                .hasMessageContaining("runing")
                .hasMessageContaining("pending, running, recovering");
        assertThatThrownBy(() -> json.readValue("{\"byCause\":{\"nope\":1}}", Answer.class))
                .hasMessageContaining("nope")
                .hasMessageContaining("spot-reclaim");
    }
}
