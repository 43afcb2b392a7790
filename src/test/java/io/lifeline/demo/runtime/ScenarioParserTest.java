package io.lifeline.demo.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lifeline.demo.GpuModel;
import io.lifeline.demo.Scenario;
import io.lifeline.domain.event.CapacityType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioParserTest {

    private final ScenarioParser parser = new ScenarioParser();

    private static final String MINIMAL = """
            {
              "pools": [
                {"name": "spot-a", "capacityType": "spot", "zone": "us-east-1a", "instanceType": "p4d.24xlarge",
                 "nodeCount": 4, "interruptionsPerNodeHour": 0.5}
              ],
              "jobs": [
                {"namespace": "ml", "name": "train", "minNodes": 1, "maxNodes": 3, "stepSeconds": 2.5}
              ]
            }
            """;

    private Scenario parse(String json) {
        return parser.parse(json.getBytes(StandardCharsets.UTF_8), "test.json");
    }

    private List<String> problems(String json) {
        try {
            parse(json);
        } catch (ScenarioException e) {
            assertThat(e.source()).isEqualTo("test.json");
            assertThat(e.getMessage()).startsWith("demo scenario test.json is invalid:");
            return e.problems();
        }
        throw new AssertionError("expected problems in " + json);
    }

    @Test
    void theBuiltInScenarioHasSpotAndOnDemandPoolsOfEightGpuNodesAndElasticJobs() {
        Scenario s = parser.loadDefault();
        assertThat(s.pools())
                .extracting(Scenario.Pool::capacityType)
                .contains(CapacityType.SPOT, CapacityType.ON_DEMAND);
        assertThat(s.pools().stream().mapToInt(Scenario.Pool::nodeCount).sum()).isGreaterThanOrEqualTo(32);
        assertThat(s.pools()).allSatisfy(p -> {
            assertThat(p.gpusPerNode()).isEqualTo(8);
            assertThat(p.resolvedGpuModel()).isNotNull();
        });
        assertThat(s.jobs())
                .hasSizeGreaterThanOrEqualTo(4)
                .allSatisfy(j -> assertThat(j.minNodes()).isLessThan(j.maxNodes()));
        assertThat(s.firstNoticeAfterSeconds()).isBetween(60L, 180L);
        assertThat(s.jobs())
                .allSatisfy(j -> assertThat(j.checkpoint().intervalSeconds()).isBetween(60L, 600L));
        assertThat(s.problems()).isEmpty();
    }

    @Test
    void optionalFieldsTakeTheirDocumentedDefaults() {
        Scenario s = parse(MINIMAL);
        assertThat(s.seed()).isEqualTo(ScenarioParser.DEFAULT_SEED);
        assertThat(s.telemetryIntervalSeconds()).isEqualTo(10);
        assertThat(s.firstNoticeAfterSeconds()).isNull();
        Scenario.Pool p = s.pools().get(0);
        assertThat(p.gpusPerNode()).isEqualTo(8);
        assertThat(p.noticeSeconds()).isEqualTo(120);
        assertThat(p.resolvedGpuModel()).isEqualTo(GpuModel.A100_40GB);
        assertThat(p.provider()).isEqualTo("aws");
        Scenario.Job j = s.jobs().get(0);
        assertThat(j.pools()).isEmpty();
        assertThat(j.procsPerNode()).isEqualTo(8);
        assertThat(j.maxRestarts()).isEqualTo(100);
        assertThat(j.checkpoint().intervalSeconds()).isEqualTo(1800);
        assertThat(j.checkpoint().async()).isFalse();
        assertThat(j.checkpoint().uriPrefix()).isEqualTo("s3://lifeline-demo-checkpoints");
    }

    @Test
    void asyncSavesUploadForFourTimesTheirBlockingTimeUnlessTold() {
        Scenario s = parse(MINIMAL.replace(
                "\"stepSeconds\": 2.5}",
                "\"stepSeconds\": 2.5, \"checkpoint\": {\"async\": true, \"blockingSeconds\": 5}}"));
        assertThat(s.jobs().get(0).checkpoint().uploadSeconds()).isEqualTo(20);
    }

    @Test
    void missingRequiredFieldsAreNamed() {
        assertThat(problems("{\"jobs\": [{\"namespace\": \"ml\"}]}"))
                .contains(
                        "pools: required",
                        "jobs[0].name: required",
                        "jobs[0].minNodes: required",
                        "jobs[0].maxNodes: required",
                        "jobs[0].stepSeconds: required");
    }

    @Test
    void wrongTypesSayWhatWasExpectedAndWhatCame() {
        assertThat(problems(MINIMAL.replace("\"nodeCount\": 4", "\"nodeCount\": \"four\"")))
                .containsExactly("pools[0].nodeCount: expected a whole number, got \"four\"");
        assertThat(problems(MINIMAL.replace("\"stepSeconds\": 2.5", "\"stepSeconds\": true")))
                .containsExactly("jobs[0].stepSeconds: expected a number, got true");
    }

    @Test
    void unknownFieldsAreReportedAsLikelyTypos() {
        assertThat(problems(MINIMAL.replace("\"nodeCount\": 4", "\"nodeCout\": 4, \"nodeCount\": 4")))
                .singleElement()
                .asString()
                .startsWith("pools[0].nodeCout: unknown field (known: name, capacityType");
    }

    @Test
    void valuesOutOfRangeAndBrokenReferencesAreReportedWithTheirField() {
        String json = MINIMAL.replace("\"maxNodes\": 3", "\"maxNodes\": 0, \"pools\": [\"gpu-b\"]")
                .replace("\"capacityType\": \"spot\"", "\"capacityType\": \"on-demand\"");
        assertThat(problems(json))
                .containsExactlyInAnyOrder(
                        "pools[0].interruptionsPerNodeHour: only spot pools are interrupted, got 0.5 for a on-demand pool",
                        "jobs[0].pools[0]: no pool named 'gpu-b'",
                        "jobs[0].maxNodes: must be >= minNodes (1), got 0");
    }

    @Test
    void anUnknownCapacityTypeListsTheKnownOnes() {
        assertThat(problems(MINIMAL.replace("\"capacityType\": \"spot\"", "\"capacityType\": \"cheap\"")))
                .containsExactly("pools[0].capacityType: must be spot, on-demand or reserved, got \"cheap\"");
    }

    @Test
    void anUnknownInstanceTypeNeedsAGpuModel() {
        assertThat(problems(MINIMAL.replace("p4d.24xlarge", "x9.metal")))
                .singleElement()
                .asString()
                .startsWith(
                        "pools[0].gpuModel: required, because instance type 'x9.metal' is not one whose GPUs are known");
        Scenario s =
                parse(MINIMAL.replace("\"p4d.24xlarge\"", "\"x9.metal\", \"gpuModel\": \"NVIDIA H100 80GB HBM3\""));
        assertThat(s.pools().get(0).resolvedGpuModel()).isEqualTo(GpuModel.H100_80GB);
    }

    @Test
    void namesMustBeKubernetesNames() {
        assertThat(problems(MINIMAL.replace("\"name\": \"train\"", "\"name\": \"Train_1\"")))
                .singleElement()
                .asString()
                .startsWith("jobs[0].name: must be lower-case letters, digits and '-'");
    }

    @Test
    void malformedJsonGivesTheLineAndColumn() {
        assertThat(problems("{\n  \"seed\": 1,\n  oops\n}"))
                .singleElement()
                .asString()
                .startsWith("malformed JSON at line 3, column 3");
        assertThat(problems("[1, 2]")).containsExactly("expected a JSON object at the top level, got an array");
    }

    @Test
    void aFileOnDiskIsReadAndAMissingOneIsReported(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("scenario.json");
        Files.writeString(file, MINIMAL);
        assertThat(parser.load(file).jobs()).hasSize(1);
        assertThatThrownBy(() -> parser.load(dir.resolve("nope.json")))
                .isInstanceOfSatisfying(
                        ScenarioException.class, e -> assertThat(e.problems()).containsExactly("file not found"));
    }
}
