package io.lifeline.connector.inbound.exposition;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The family-level rules of OpenMetrics 1.0, checked line by line as the parser reads: metadata before samples
 * and at most once, unique family names (including the names each type's samples take: {@code a_total},
 * {@code a_created}, ...), sample names that belong to their family, label groups that are contiguous with
 * non-decreasing timestamps, values allowed for the type (no negative or NaN counters, 0/1 statesets, info = 1,
 * whole counts), well-formed histograms (ordered buckets ending at {@code +Inf}, count equal to the {@code +Inf}
 * bucket, sums with counts) and exemplars only on buckets and counter totals.
 *
 * <p>Every violation throws {@link ParseFailure}; one violation rejects the exposition. The rules follow the
 * specification as its conformance suite exercises it.
 */
final class OpenMetricsValidator {

    private static final List<String> COUNTER_SUFFIXES = List.of("_total", "_created");
    private static final List<String> SUMMARY_SUFFIXES = List.of("", "_count", "_sum", "_created");
    private static final List<String> HISTOGRAM_SUFFIXES = List.of("_count", "_sum", "_bucket", "_created");
    private static final List<String> GAUGEHISTOGRAM_SUFFIXES = List.of("_gcount", "_gsum", "_bucket");
    private static final List<String> INFO_SUFFIXES = List.of("_info");
    private static final List<String> PLAIN = List.of("");

    /** Every name a closed family used (its own and its samples'), for the clash rule. */
    private final Set<String> usedNames = new HashSet<>();

    private String family;
    private MetricType declaredType;
    private boolean helpSeen;
    private boolean unitSeen;
    private String unit;
    private boolean hasSamples;

    private final Set<String> seenGroups = new HashSet<>();
    private String group;
    private boolean groupHasTimestamp;
    private double groupTimestamp;

    private final HistogramSegment histogram = new HistogramSegment();

    void help(String name) {
        metadataFor(name);
        if (helpSeen) {
            throw new ParseFailure("second HELP line for " + name);
        }
        helpSeen = true;
    }

    void type(String name, MetricType type) {
        metadataFor(name);
        if (declaredType != null) {
            throw new ParseFailure("second TYPE line for " + name);
        }
        declaredType = type;
    }

    void unit(String name, String value) {
        metadataFor(name);
        if (unitSeen) {
            throw new ParseFailure("second UNIT line for " + name);
        }
        unitSeen = true;
        unit = value;
    }

    /** Checks one sample against its family; opens a new family when the name does not belong to the current one. */
    void sample(String name, Labels labels, double value, boolean hasTimestamp, double timestamp, boolean exemplar) {
        String suffix = family == null ? null : suffixInFamily(name);
        if (suffix == null) {
            closeFamily();
            openFamily(name);
            suffix = "";
        }
        hasSamples = true;
        MetricType type = type();
        checkLabelsForType(type, suffix, name, labels, value);
        checkGrouping(type, groupKey(type, suffix, labels), hasTimestamp, timestamp);
        checkValue(type, suffix, value);
        if (exemplar
                && !((type == MetricType.HISTOGRAM || type == MetricType.GAUGEHISTOGRAM) && "_bucket".equals(suffix))
                && !(type == MetricType.COUNTER && "_total".equals(suffix))) {
            throw new ParseFailure("exemplars are allowed only on histogram buckets and counter totals: " + name);
        }
        if (type == MetricType.HISTOGRAM || type == MetricType.GAUGEHISTOGRAM) {
            histogram.add(group, hasTimestamp, timestamp, suffix, labels, value);
        }
    }

    /** Closes the last family; called once the {@code # EOF} line has been read. */
    void finish() {
        closeFamily();
    }

    private void metadataFor(String name) {
        if (name.equals(family)) {
            if (hasSamples) {
                throw new ParseFailure("metadata for " + name + " after its samples");
            }
            return;
        }
        closeFamily();
        openFamily(name);
    }

    private MetricType type() {
        return declaredType == null ? MetricType.UNKNOWN : declaredType;
    }

    private void openFamily(String name) {
        family = name;
        declaredType = null;
        helpSeen = false;
        unitSeen = false;
        unit = null;
        hasSamples = false;
        seenGroups.clear();
        group = null;
        histogram.reset();
    }

    private void closeFamily() {
        if (family == null) {
            return;
        }
        MetricType type = type();
        if (type == MetricType.HISTOGRAM || type == MetricType.GAUGEHISTOGRAM) {
            histogram.finish(family);
        }
        if (!usedNames.add(family)) {
            throw new ParseFailure("clashing name: " + family + " was already used");
        }
        for (String suffix : suffixes(type)) {
            if (!suffix.isEmpty() && !usedNames.add(family + suffix)) {
                throw new ParseFailure("clashing name: " + family + suffix + " was already used");
            }
        }
        if (unit != null && !unit.isEmpty()) {
            if (!family.endsWith("_" + unit)) {
                throw new ParseFailure("unit " + unit + " does not match the name " + family);
            }
            if (type == MetricType.INFO || type == MetricType.STATESET) {
                throw new ParseFailure("units are not allowed on " + type.wireName() + " " + family);
            }
        }
        family = null;
    }

    private String suffixInFamily(String name) {
        if (!name.startsWith(family)) {
            return null;
        }
        String suffix = name.substring(family.length());
        return suffixes(type()).contains(suffix) ? suffix : null;
    }

    private static List<String> suffixes(MetricType type) {
        return switch (type) {
            case COUNTER -> COUNTER_SUFFIXES;
            case SUMMARY -> SUMMARY_SUFFIXES;
            case HISTOGRAM -> HISTOGRAM_SUFFIXES;
            case GAUGEHISTOGRAM -> GAUGEHISTOGRAM_SUFFIXES;
            case INFO -> INFO_SUFFIXES;
            default -> PLAIN;
        };
    }

    private void checkLabelsForType(MetricType type, String suffix, String name, Labels labels, double value) {
        if (type == MetricType.STATESET && labels.get(family) == null) {
            throw new ParseFailure("stateset sample without its " + family + " label: " + name);
        }
        boolean histogramLike = type == MetricType.HISTOGRAM || type == MetricType.GAUGEHISTOGRAM;
        if (histogramLike && "_bucket".equals(suffix)) {
            String le = labels.get("le");
            Double bound = le == null ? null : Numbers.parseFloatOrNull(le);
            if (bound == null || bound.isNaN() || (bound == Double.POSITIVE_INFINITY && !"+Inf".equals(le))) {
                throw new ParseFailure("invalid or missing le label on " + name);
            }
            if (!Numbers.isWhole(value)) {
                throw new ParseFailure("bucket value must be a whole number: " + name);
            }
        }
        if (("_count".equals(suffix) || "_gcount".equals(suffix)) && histogramLike && !Numbers.isWhole(value)) {
            throw new ParseFailure("count value must be a whole number: " + name);
        }
        if (type == MetricType.SUMMARY && suffix.isEmpty()) {
            String q = labels.get("quantile");
            Double quantile = q == null ? null : Numbers.parseFloatOrNull(q);
            if (quantile == null || !(quantile >= 0 && quantile <= 1)) {
                throw new ParseFailure("invalid or missing quantile label on " + name);
            }
        }
        if (type == MetricType.SUMMARY && "_count".equals(suffix) && !Numbers.isWhole(value)) {
            throw new ParseFailure("count value must be a whole number: " + name);
        }
    }

    private void checkGrouping(MetricType type, String key, boolean hasTimestamp, double timestamp) {
        if (group != null && !group.equals(key) && seenGroups.contains(key)) {
            throw new ParseFailure("samples of one label group must be contiguous in " + family);
        }
        if (group != null && group.equals(key)) {
            if (hasTimestamp != groupHasTimestamp) {
                throw new ParseFailure("mix of samples with and without timestamps in one group of " + family);
            }
            if (hasTimestamp && groupTimestamp > timestamp && type != MetricType.INFO) {
                throw new ParseFailure("timestamps went backwards within a group of " + family);
            }
        }
        group = key;
        groupHasTimestamp = hasTimestamp;
        groupTimestamp = timestamp;
        seenGroups.add(key);
    }

    private void checkValue(MetricType type, String suffix, double value) {
        if (type == MetricType.STATESET && value != 0 && value != 1) {
            throw new ParseFailure("stateset values must be 0 or 1 in " + family);
        }
        if (type == MetricType.INFO && value != 1) {
            throw new ParseFailure("info values must be 1 in " + family);
        }
        if (type == MetricType.SUMMARY && suffix.isEmpty() && value < 0) {
            throw new ParseFailure("quantile values cannot be negative in " + family);
        }
        boolean counterLike = switch (suffix) {
            case "_total", "_sum", "_count", "_bucket", "_gcount", "_gsum" -> true;
            default -> false;
        };
        if (counterLike && Double.isNaN(value)) {
            throw new ParseFailure("counter-like sample " + family + suffix + " cannot be NaN");
        }
        if (counterLike && !"_gsum".equals(suffix) && value < 0) {
            throw new ParseFailure("counter-like sample " + family + suffix + " cannot be negative");
        }
    }

    /** The label group a sample belongs to: its labels without the ones that vary inside one metric point. */
    private String groupKey(MetricType type, String suffix, Labels labels) {
        if (type == MetricType.INFO) {
            return "";
        }
        String skip = null;
        if (type == MetricType.SUMMARY && suffix.isEmpty()) {
            skip = "quantile";
        } else if (type == MetricType.STATESET) {
            skip = family;
        } else if ((type == MetricType.HISTOGRAM || type == MetricType.GAUGEHISTOGRAM) && "_bucket".equals(suffix)) {
            skip = "le";
        }
        List<String> parts = new ArrayList<>(labels.size());
        for (int i = 0; i < labels.size(); i++) {
            if (!labels.name(i).equals(skip)) {
                parts.add(labels.name(i) + '\u0000' + labels.value(i));
            }
        }
        parts.sort(null);
        return String.join("\u0001", parts);
    }

    /** Histogram rules, checked per (label group, timestamp) segment. */
    private static final class HistogramSegment {
        private boolean started;
        private String group;
        private boolean hasTimestamp;
        private double timestamp;
        private Double lastBound;
        private double lastBucketValue;
        private Double count;
        private boolean negativeBuckets;
        private boolean hasSum;
        private boolean hasGsum;
        private boolean negativeGsum;

        void reset() {
            started = false;
        }

        void add(String key, boolean ts, double at, String suffix, Labels labels, double value) {
            if (started && (!key.equals(group) || ts != hasTimestamp || (ts && at != timestamp))) {
                finish(null);
            }
            if (!started) {
                started = true;
                group = key;
                hasTimestamp = ts;
                timestamp = at;
                lastBound = null;
                lastBucketValue = 0;
                count = null;
                negativeBuckets = false;
                hasSum = false;
                hasGsum = false;
                negativeGsum = false;
            }
            switch (suffix) {
                case "_bucket" -> {
                    double bound = Numbers.parseFloatOrNull(labels.get("le"));
                    negativeBuckets |= bound < 0;
                    if (lastBound != null && bound <= lastBound) {
                        throw new ParseFailure("histogram buckets out of order");
                    }
                    if (value < lastBucketValue) {
                        throw new ParseFailure("histogram bucket values must not decrease");
                    }
                    lastBound = bound;
                    lastBucketValue = value;
                }
                case "_count", "_gcount" -> count = value;
                case "_sum" -> hasSum = true;
                case "_gsum" -> {
                    hasGsum = true;
                    negativeGsum |= value < 0;
                }
                default -> {
                    // _created: no rule
                }
            }
        }

        void finish(String family) {
            if (!started) {
                return;
            }
            started = false;
            String of = family == null ? "" : " in " + family;
            if (lastBound == null || lastBound != Double.POSITIVE_INFINITY) {
                throw new ParseFailure("histogram without a +Inf bucket" + of);
            }
            if (count != null && count != lastBucketValue) {
                throw new ParseFailure("histogram count does not match its +Inf bucket" + of);
            }
            if ((hasSum || hasGsum) && count == null) {
                throw new ParseFailure("histogram sum without a count" + of);
            }
            if (!(hasSum || hasGsum) && count != null) {
                throw new ParseFailure("histogram count without a sum" + of);
            }
            if (negativeBuckets && hasSum) {
                throw new ParseFailure("a histogram with negative buckets cannot have a _sum" + of);
            }
            if (!negativeBuckets && negativeGsum) {
                throw new ParseFailure("negative _gsum with non-negative buckets" + of);
            }
        }
    }
}
