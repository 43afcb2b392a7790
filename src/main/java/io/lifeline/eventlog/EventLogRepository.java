package io.lifeline.eventlog;

import io.quarkus.hibernate.orm.panache.PanacheRepositoryBase;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;

/** Reads the event log with keyset paging (index range scans on subject/type and time, never OFFSET). */
@ApplicationScoped
public class EventLogRepository implements PanacheRepositoryBase<StoredEvent, Long> {

    /** One page of events matching the query, plus one extra row to tell whether more follow. */
    public List<StoredEvent> page(EventLogQuery q) {
        List<String> where = new ArrayList<>();
        Parameters p = new Parameters();
        if (q.subject() != null) {
            where.add("subject = :subject");
            p = p.and("subject", q.subject());
        }
        if (q.namespaces() != null) {
            // Filtered here, before the page is cut, so a scoped reader's pages are full and its cursors right.
            List<String> any = new ArrayList<>();
            int i = 0;
            for (String ns : q.namespaces()) {
                any.add("subject like :scope" + i);
                p = p.and("scope" + i, ns + "/%");
                i++;
            }
            if (q.nodes() != null && !q.nodes().isEmpty()) {
                any.add("subject in :scopeNodes");
                p = p.and("scopeNodes", List.copyOf(q.nodes()));
            }
            where.add(any.isEmpty() ? "1 = 0" : "(" + String.join(" or ", any) + ")");
        }
        if (q.type() != null) {
            where.add("type = :type");
            p = p.and("type", q.type());
        }
        if (q.from() != null) {
            where.add("time >= :from");
            p = p.and("from", q.from());
        }
        if (q.to() != null) {
            where.add("time < :to");
            p = p.and("to", q.to());
        }
        if (q.after() != null) {
            String op = q.descending() ? "<" : ">";
            where.add("(time " + op + " :ct or (time = :ct and seq " + op + " :cs))");
            p = p.and("ct", q.after().time()).and("cs", q.after().seq());
        }
        Sort sort = q.descending()
                ? Sort.by("time", Sort.Direction.Descending).and("seq", Sort.Direction.Descending)
                : Sort.by("time").and("seq");
        String hql = where.isEmpty() ? "1 = 1" : String.join(" and ", where);
        return find(hql, sort, p).page(0, q.limit() + 1).list();
    }
}
