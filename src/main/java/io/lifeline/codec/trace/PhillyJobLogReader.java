package io.lifeline.codec.trace;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lifeline.domain.replay.PhillyJob;
import io.lifeline.domain.replay.PhillyTranslation;
import io.lifeline.domain.replay.Trace;
import io.lifeline.domain.replay.TraceFormat;
import io.lifeline.domain.replay.TraceRejection;
import io.lifeline.platform.Json;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the Philly {@code cluster_job_log} as the public trace ships it: JSON job records
 * ({@code jobid, status, vc, user, submitted_time, attempts[{start_time, end_time, detail[{ip, gpus[]}]}]}), as one
 * array, as one record per line, or as records one after the other. A record that cannot be read is refused with
 * the line it starts on and the reason; the others are kept.
 */
public final class PhillyJobLogReader {

    private static final ObjectMapper MAPPER = Json.mapper();

    private PhillyJobLogReader() {}

    public static Trace read(String text) {
        List<PhillyTranslation.Numbered> jobs = new ArrayList<>();
        List<TraceRejection> rejected = new ArrayList<>();
        if (oneRecordPerLine(text)) {
            String[] lines = text.split("\r?\n|\r", -1);
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].isBlank()) {
                    continue;
                }
                try {
                    record(i + 1, MAPPER.readTree(lines[i]), jobs, rejected);
                } catch (IOException e) {
                    rejected.add(new TraceRejection(i + 1, "malformed JSON: " + message(e)));
                }
            }
        } else {
            stream(text, jobs, rejected);
        }
        return PhillyTranslation.trace(TraceFormat.PHILLY_JSON, jobs, rejected);
    }

    /** Records one per line: every non-blank line starts an object (a pretty-printed record spans lines that do not). */
    private static boolean oneRecordPerLine(String text) {
        boolean any = false;
        for (String line : text.split("\r?\n|\r")) {
            String t = line.trim();
            if (t.isEmpty()) {
                continue;
            }
            if (!t.startsWith("{")) {
                return false;
            }
            any = true;
        }
        return any;
    }

    private static void stream(String text, List<PhillyTranslation.Numbered> jobs, List<TraceRejection> rejected) {
        int line = 1;
        try (JsonParser p = MAPPER.getFactory().createParser(text)) {
            JsonToken t = p.nextToken();
            boolean array = t == JsonToken.START_ARRAY;
            if (array) {
                t = p.nextToken();
            }
            while (t != null && !(array && t == JsonToken.END_ARRAY)) {
                line = p.currentTokenLocation().getLineNr();
                JsonNode node = p.readValueAsTree();
                record(line, node, jobs, rejected);
                t = p.nextToken();
            }
            if (array && p.nextToken() != null) {
                rejected.add(new TraceRejection(p.currentTokenLocation().getLineNr(), "content after the array"));
            }
        } catch (JsonParseException e) {
            int at = e.getLocation() != null ? e.getLocation().getLineNr() : line;
            rejected.add(new TraceRejection(at, "malformed JSON (the rest of the file is not read): " + message(e)));
        } catch (IOException e) {
            rejected.add(new TraceRejection(line, "unreadable: " + message(e)));
        }
    }

    private static String message(IOException e) {
        return e instanceof com.fasterxml.jackson.core.JsonProcessingException j
                ? j.getOriginalMessage()
                : e.getMessage();
    }

    private static void record(
            int line, JsonNode n, List<PhillyTranslation.Numbered> jobs, List<TraceRejection> rejected) {
        try {
            jobs.add(new PhillyTranslation.Numbered(line, job(n)));
        } catch (IllegalArgumentException e) {
            rejected.add(new TraceRejection(line, e.getMessage()));
        }
    }

    private static PhillyJob job(JsonNode n) {
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException("a job record must be a JSON object");
        }
        String id = text(n, "jobid");
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("jobid is missing");
        }
        Instant submitted = PhillyJob.time("submitted_time", text(n, "submitted_time"));
        JsonNode attempts = n.get("attempts");
        if (attempts == null || !attempts.isArray()) {
            throw new IllegalArgumentException("job " + id + ": attempts must be an array");
        }
        List<PhillyJob.Attempt> out = new ArrayList<>();
        for (int i = 0; i < attempts.size(); i++) {
            JsonNode a = attempts.get(i);
            try {
                out.add(attempt(a));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("job " + id + ", attempt " + i + ": " + e.getMessage());
            }
        }
        return new PhillyJob(id, text(n, "status"), text(n, "vc"), text(n, "user"), submitted, out);
    }

    private static PhillyJob.Attempt attempt(JsonNode a) {
        if (!a.isObject()) {
            throw new IllegalArgumentException("an attempt must be an object");
        }
        Instant start = PhillyJob.time("start_time", text(a, "start_time"));
        String endText = text(a, "end_time");
        Instant end = endText == null || endText.isBlank() || endText.equalsIgnoreCase("None")
                ? null
                : PhillyJob.time("end_time", endText);
        List<PhillyJob.Machine> machines = new ArrayList<>();
        JsonNode detail = a.get("detail");
        if (detail == null || !detail.isArray() || detail.isEmpty()) {
            throw new IllegalArgumentException("detail must name the machines");
        }
        for (JsonNode d : detail) {
            String ip = text(d, "ip");
            JsonNode gpus = d.get("gpus");
            if (gpus == null || !gpus.isArray()) {
                throw new IllegalArgumentException("detail of " + ip + ": gpus must be an array");
            }
            machines.add(new PhillyJob.Machine(ip, gpus.size()));
        }
        return new PhillyJob.Attempt(start, end, machines, null);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
