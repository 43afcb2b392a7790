package io.lifeline.connector.inbound.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.lifeline.config.CloudConnectorConfig;
import io.lifeline.config.KernelLogConfig;
import io.lifeline.config.KubeConfig;
import io.lifeline.config.NoticesConnectorConfig;
import io.lifeline.config.NvSentinelConfig;
import io.lifeline.config.PrometheusSourceConfig;
import io.lifeline.config.ScrapeConfig;
import io.lifeline.config.TorchelasticConnectorConfig;
import io.lifeline.connector.inbound.kube.admission.EvictionGateConfig;
import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/connectors.md lists every {@code lifeline.connectors.*} key with its default (and the eviction webhook's
 * {@code lifeline.eviction-gate.*}, written in full): checked against the config mappings themselves, so neither can
 * change without the other.
 */
class ConnectorsDocTest {

    /** The table's key prefix (relative to {@code lifeline.connectors.} unless it starts with {@code lifeline.}). */
    private static final Map<String, Class<?>> MAPPINGS = Map.of(
            "cloud",
            CloudConnectorConfig.class,
            "torchelastic",
            TorchelasticConnectorConfig.class,
            "kafka",
            NoticesConnectorConfig.class,
            "dcgm",
            ScrapeConfig.class,
            "kubernetes",
            KubeConfig.class,
            "nvsentinel",
            NvSentinelConfig.class,
            "kernel-log",
            KernelLogConfig.class,
            "prometheus",
            PrometheusSourceConfig.class,
            "lifeline.eviction-gate",
            EvictionGateConfig.class,
            "torchft",
            io.lifeline.connector.inbound.torchft.TorchFtConfig.class);
    /** How the table names the entries of each map-valued key. */
    private static final Map<String, String> MAP_ENTRY = Map.of("nodes", "<machine>", "headers", "<header>");

    private static final Pattern ROW = Pattern.compile("^\\| `([a-z][^`]*)` \\| (.*?) \\| .*\\|$");

    private static Map<String, String> documented() throws IOException {
        String doc = Files.readString(Path.of("docs/connectors.md"));
        String table = doc.substring(doc.indexOf("## Configuration"));
        Map<String, String> rows = new LinkedHashMap<>();
        for (String line : table.split("\n")) {
            Matcher m = ROW.matcher(line);
            if (m.matches()) {
                rows.put(m.group(1), m.group(2).trim());
            }
        }
        return rows;
    }

    /** Every key of a mapping, as the doc writes it ({@code <group>.<kebab-name>}, placeholders for maps and lists). */
    private static List<String> keys(String prefix, Class<?> type) {
        List<String> out = new ArrayList<>();
        for (Method m : type.getMethods()) {
            if (m.getDeclaringClass() != type || m.getParameterCount() > 0 || m.isDefault()) {
                continue;
            }
            String key = prefix + "." + kebab(m.getName());
            Class<?> ret = m.getReturnType();
            if (ret.isInterface()
                    && (ret.getName().startsWith("io.lifeline.config") || ret.getEnclosingClass() == type)) {
                out.addAll(keys(key, ret));
            } else if (Map.class.isAssignableFrom(ret)
                    && m.getGenericReturnType().getTypeName().contains("io.lifeline.config")) {
                out.addAll(keys(key + ".\"<run id>\"", nested(type, "Job")));
            } else if (Map.class.isAssignableFrom(ret)) {
                out.add(key + ".\"" + MAP_ENTRY.getOrDefault(m.getName(), "<" + m.getName() + ">") + "\"");
            } else if (m.getGenericReturnType().getTypeName().contains("List<io.lifeline.config")) {
                out.addAll(keys(key + "[i]", nested(type, "Endpoint")));
            } else {
                out.add(key);
            }
        }
        return out;
    }

    private static Class<?> nested(Class<?> type, String name) {
        return Arrays.stream(type.getClasses())
                .filter(c -> c.getSimpleName().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    @Test
    void everyKeyIsDocumentedAndNothingElse() throws IOException {
        TreeSet<String> actual = new TreeSet<>();
        MAPPINGS.forEach((prefix, type) -> actual.addAll(keys(prefix, type)));
        assertThat(new TreeSet<>(documented().keySet())).isEqualTo(actual);
    }

    @Test
    void everyDocumentedDefaultIsTheMappingsDefault() throws Exception {
        // Durations as Quarkus reads them ("15s", "500ms"), which plain SmallRye Config does not.
        SmallRyeConfigBuilder builder = new SmallRyeConfigBuilder()
                .withConverter(Duration.class, 200, new DurationConverter())
                .withConverter(
                        io.quarkus.runtime.configuration.MemorySize.class,
                        200,
                        new io.quarkus.runtime.configuration.MemorySizeConverter());
        MAPPINGS.values().forEach(builder::withMapping);
        SmallRyeConfig config = builder.build();
        for (Map.Entry<String, String> row : documented().entrySet()) {
            String key = row.getKey();
            if (key.contains("\"<") || key.contains("[i]")) {
                continue; // entries of maps and lists: none by default
            }
            String prefix = MAPPINGS.keySet().stream()
                    .filter(p -> key.startsWith(p + "."))
                    .findFirst()
                    .orElseThrow();
            String[] path = key.substring(prefix.length() + 1).split("\\.");
            Object value = config.getConfigMapping(MAPPINGS.get(prefix));
            for (int i = 0; i < path.length; i++) {
                String method = Pattern.compile("-([a-z])")
                        .matcher(path[i])
                        .replaceAll(r -> r.group(1).toUpperCase(Locale.ROOT));
                value = value.getClass().getMethod(method).invoke(value);
            }
            assertThat(render(value)).as(key).isEqualTo(row.getValue());
        }
    }

    /** A default as the doc's table writes it. */
    private static String render(Object v) {
        if (v instanceof Optional<?> o) {
            return o.isEmpty() ? "none" : render(o.get());
        }
        if (v instanceof Duration d) {
            long ms = d.toMillis();
            return "`" + (ms % 60_000 == 0 ? ms / 60_000 + "m" : ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms") + "`";
        }
        if (v instanceof io.quarkus.runtime.configuration.MemorySize m) {
            long b = m.asLongValue();
            return "`" + (b % (1024 * 1024) == 0 ? b / (1024 * 1024) + "M" : b % 1024 == 0 ? b / 1024 + "K" : b) + "`";
        }
        if (v instanceof Enum<?> e) {
            return "`" + e.name().toLowerCase(java.util.Locale.ROOT) + "`";
        }
        if (v instanceof List<?> l) {
            return String.join(", ", l.stream().map(x -> "`" + x + "`").toList());
        }
        return "`" + v + "`";
    }
}
