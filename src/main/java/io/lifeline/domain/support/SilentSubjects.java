package io.lifeline.domain.support;

import java.util.ArrayDeque;
import java.util.OptionalLong;

/**
 * Forgets subjects (nodes, jobs) that are known only from stray events and have gone silent, without scanning the
 * model: a subject is queued by name when it first appears, and only the head of the queue is looked at. When the
 * head is due, the owner says whether the subject is still a candidate and when it was last heard from; a candidate
 * silent for {@code forgetAfterMillis} is forgotten, one heard from since is queued again, any other leaves the
 * queue. A stray is thus forgotten between one and two periods after its last event, at O(1) per event amortised;
 * the queue holds names only.
 *
 * <p>Time is event time (the newest seen: a watermark, never the clock), so replaying the same events forgets the
 * same subjects. Not thread-safe, like the model.
 */
public final class SilentSubjects {

    /** What the owner of the subjects knows of them. */
    public interface Subjects {
        /** The subject's newest event time (epoch ms) while it is one to forget once silent, else empty. */
        OptionalLong candidate(String subject);

        /** Forgets the subject. */
        void forget(String subject);
    }

    private record Entry(String subject, long queuedAt) {}

    private final long forgetAfterMillis;
    private final ArrayDeque<Entry> queue = new ArrayDeque<>();
    private long watermark = Long.MIN_VALUE;

    public SilentSubjects(long forgetAfterMillis) {
        if (forgetAfterMillis <= 0) {
            throw new IllegalArgumentException("forgetAfterMillis must be positive, got " + forgetAfterMillis);
        }
        this.forgetAfterMillis = forgetAfterMillis;
    }

    /** A subject that may turn out to be a stray, first seen at {@code millis}. */
    public void add(String subject, long millis) {
        watermark = Math.max(watermark, millis);
        queue.addLast(new Entry(subject, watermark));
    }

    /** Advances the watermark to {@code millis} (if later) and forgets the candidates silent long enough. */
    public void forgetSilent(long millis, Subjects subjects) {
        watermark = Math.max(watermark, millis);
        Entry head;
        while ((head = queue.peekFirst()) != null && watermark - head.queuedAt >= forgetAfterMillis) {
            queue.pollFirst();
            OptionalLong last = subjects.candidate(head.subject);
            if (last.isEmpty()) {
                continue;
            }
            if (watermark - last.getAsLong() >= forgetAfterMillis) {
                subjects.forget(head.subject);
            } else {
                queue.addLast(new Entry(head.subject, watermark));
            }
        }
    }

    /** Subjects queued. */
    public int size() {
        return queue.size();
    }
}
