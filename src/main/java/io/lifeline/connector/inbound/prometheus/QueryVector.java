package io.lifeline.connector.inbound.prometheus;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import io.lifeline.connector.inbound.exposition.Labels;
import io.lifeline.connector.inbound.exposition.Sample;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The samples of an instant query's vector answer ({@code {"status":"success","data":{"resultType":"vector",
 * "result":[{"metric":{...},"value":[t,"v"]}, ...]}}}), read as a stream (an answer for a whole fleet can be tens
 * of megabytes; no tree of it is built) into the same {@link Sample}s an exposition parse yields, so the dcgm
 * translation reads them as it reads a scrape. Label names and values repeat from series to series and are shared.
 * A series without {@code __name__} or with an unreadable value is counted and skipped.
 */
final class QueryVector {

    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(
                    StreamReadConstraints.builder().maxNestingDepth(8).build())
            .build();

    /** What came out: the samples and how many series were skipped. */
    record Result(List<Sample> samples, int skipped) {}

    private QueryVector() {}

    static Result parse(byte[] body) throws IOException {
        List<Sample> samples = new ArrayList<>();
        int skipped = 0;
        Map<String, String> strings = new HashMap<>();
        try (JsonParser p = JSON.createParser(body)) {
            expect(p.nextToken() == JsonToken.START_OBJECT, "not a JSON object");
            String resultType = null;
            boolean sawResult = false;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                if ("status".equals(field)) {
                    expect("success".equals(p.getValueAsString()), "status is not success");
                } else if ("data".equals(field) && p.currentToken() == JsonToken.START_OBJECT) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String f = p.currentName();
                        p.nextToken();
                        if ("resultType".equals(f)) {
                            resultType = p.getValueAsString();
                        } else if ("result".equals(f) && p.currentToken() == JsonToken.START_ARRAY) {
                            sawResult = true;
                            while (p.nextToken() == JsonToken.START_OBJECT) {
                                if (!series(p, samples, strings)) {
                                    skipped++;
                                }
                            }
                        } else {
                            p.skipChildren();
                        }
                    }
                } else {
                    p.skipChildren();
                }
            }
            expect(sawResult, "no data.result");
            expect(
                    resultType == null || "vector".equals(resultType),
                    "the query answers a " + resultType + ", not an instant vector");
        }
        return new Result(samples, skipped);
    }

    /** One {@code {"metric":{...},"value":[t,"v"]}}; false when it is not a usable sample. */
    private static boolean series(JsonParser p, List<Sample> out, Map<String, String> strings) throws IOException {
        List<String> pairs = new ArrayList<>(24);
        String name = null;
        double value = Double.NaN;
        long millis = Sample.NO_TIMESTAMP;
        boolean valueRead = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken t = p.nextToken();
            if ("metric".equals(f) && t == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String label = p.currentName();
                    p.nextToken();
                    String v = p.getValueAsString();
                    if (v == null) {
                        p.skipChildren();
                        continue;
                    }
                    if ("__name__".equals(label)) {
                        name = shared(strings, v);
                    } else {
                        pairs.add(shared(strings, label));
                        pairs.add(shared(strings, v));
                    }
                }
            } else if ("value".equals(f) && t == JsonToken.START_ARRAY) {
                if (p.nextToken() == JsonToken.VALUE_NUMBER_FLOAT || p.currentToken() == JsonToken.VALUE_NUMBER_INT) {
                    millis = Math.round(p.getDoubleValue() * 1000);
                    if (p.nextToken() == JsonToken.VALUE_STRING) {
                        value = number(p.getText());
                        valueRead = !Double.isNaN(value) || "NaN".equals(p.getText());
                    }
                }
                while (p.currentToken() != JsonToken.END_ARRAY && p.currentToken() != null) {
                    p.nextToken();
                }
            } else {
                p.skipChildren();
            }
        }
        if (name == null || !valueRead) {
            return false;
        }
        out.add(new Sample(name, Labels.of(pairs.toArray(new String[0])), value, millis));
        return true;
    }

    private static double number(String s) {
        switch (s) {
            case "+Inf":
                return Double.POSITIVE_INFINITY;
            case "-Inf":
                return Double.NEGATIVE_INFINITY;
            case "NaN":
                return Double.NaN;
            default:
                try {
                    return Double.parseDouble(s);
                } catch (NumberFormatException e) {
                    return Double.NaN;
                }
        }
    }

    private static String shared(Map<String, String> strings, String s) {
        if (strings.size() > 100_000) {
            return s;
        }
        String known = strings.putIfAbsent(s, s);
        return known != null ? known : s;
    }

    private static void expect(boolean ok, String what) throws IOException {
        if (!ok) {
            throw new IOException("not a Prometheus vector answer: " + what);
        }
    }
}
