package io.lifeline.domain.job;

import io.lifeline.domain.job.incident.IncidentView;
import java.util.List;

/**
 * A page of a job's timeline, in time order.
 *
 * @param job         job name
 * @param entries     the lines of this page
 * @param incidents   incidents that overlap the page's time range
 * @param nextCursor  pass it back to get the next page, or null when this is the last
 */
public record TimelinePage(String job, List<TimelineEntry> entries, List<IncidentView> incidents, String nextCursor) {}
