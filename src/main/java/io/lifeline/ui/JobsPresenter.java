package io.lifeline.ui;

import com.vaadin.flow.data.provider.QuerySortOrder;
import com.vaadin.flow.data.provider.SortDirection;
import io.lifeline.ui.data.JobRow;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Filters, sorts and pages the jobs of the shared snapshot for one grid. Holds nothing per tab: every call works on
 * the snapshot it is given.
 */
public final class JobsPresenter {

    /** Sort keys by column key. */
    static final Map<String, Comparator<JobRow>> SORTS = Map.of(
            "name", Comparator.comparing(JobRow::name),
            "state", Comparator.comparing(JobRow::state),
            "world", Comparator.comparingInt(JobRow::worldSize),
            "freshness", nullsLast(JobRow::freshnessRatio),
            "ettr", nullsLast(JobRow::ettr),
            "lost", Comparator.comparingDouble(JobRow::lostGpuHours),
            "restarts", Comparator.comparingInt(JobRow::restarts),
            "incident", Comparator.comparing(JobRow::lastIncidentAt, Comparator.nullsFirst(Comparator.naturalOrder())));

    private JobsPresenter() {}

    /** The jobs matching {@code q}, in the requested order. */
    public static List<JobRow> filter(List<JobRow> jobs, JobsQuery q, List<QuerySortOrder> sort) {
        String needle = q.search() == null ? "" : q.search().trim().toLowerCase(Locale.ROOT);
        Comparator<JobRow> order = null;
        for (QuerySortOrder o : sort) {
            Comparator<JobRow> c = SORTS.get(o.getSorted());
            if (c != null) {
                c = o.getDirection() == SortDirection.DESCENDING ? c.reversed() : c;
                order = order == null ? c : order.thenComparing(c);
            }
        }
        var stream = jobs.stream()
                .filter(j ->
                        needle.isEmpty() || j.name().toLowerCase(Locale.ROOT).contains(needle))
                .filter(j -> q.state() == null || q.state() == j.state())
                .filter(j -> q.namespace() == null
                        || q.namespace().isBlank()
                        || q.namespace().equals(j.namespace()))
                .filter(j -> !q.breachedOnly() || j.breached())
                .filter(j -> !q.incidentOnly() || j.incidentOpen());
        return order == null ? stream.toList() : stream.sorted(order).toList();
    }

    /** One page of {@link #filter}. */
    public static List<JobRow> page(List<JobRow> jobs, JobsQuery q, List<QuerySortOrder> sort, int offset, int limit) {
        List<JobRow> all = filter(jobs, q, sort);
        int from = Math.min(offset, all.size());
        return all.subList(from, Math.min(all.size(), from + limit));
    }

    /** The namespaces present, sorted. */
    public static List<String> namespaces(List<JobRow> jobs) {
        TreeSet<String> ns = new TreeSet<>();
        jobs.forEach(j -> ns.add(j.namespace()));
        return List.copyOf(ns);
    }

    private static Comparator<JobRow> nullsLast(Function<JobRow, Double> key) {
        return Comparator.comparing(key, Comparator.nullsLast(Comparator.naturalOrder()));
    }
}
