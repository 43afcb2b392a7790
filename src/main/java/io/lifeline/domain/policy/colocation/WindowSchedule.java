package io.lifeline.domain.policy.colocation;

import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** When a co-location window is open. */
public sealed interface WindowSchedule {

    /** The start of the open interval that contains {@code t}, or empty when closed at {@code t}. */
    Optional<Instant> openedAt(Instant t);

    /** The next instant after {@code t} at which the window opens or closes. */
    Instant nextChange(Instant t);

    default boolean isOpen(Instant t) {
        return openedAt(t).isPresent();
    }

    /**
     * Open on the given days from {@code from} to {@code to}, local time in {@code zone}. When {@code to} is not
     * after {@code from} the interval runs overnight, into the next day (a day names the day it opens on). Local
     * times that a daylight-saving change skips move forward by the gap, as {@link ZonedDateTime#of} does.
     */
    record Weekly(Set<DayOfWeek> days, LocalTime from, LocalTime to, ZoneId zone) implements WindowSchedule {

        public Weekly {
            days = days.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(days));
            if (from.equals(to)) {
                throw new IllegalArgumentException("a window from " + from + " to the same time is empty");
            }
        }

        @Override
        public Optional<Instant> openedAt(Instant t) {
            LocalDate today = t.atZone(zone).toLocalDate();
            for (LocalDate day : new LocalDate[] {today, today.minusDays(1)}) {
                if (!days.contains(day.getDayOfWeek())) {
                    continue;
                }
                Instant start = start(day);
                if (!t.isBefore(start) && t.isBefore(end(day))) {
                    return Optional.of(start);
                }
            }
            return Optional.empty();
        }

        @Override
        public Instant nextChange(Instant t) {
            Optional<Instant> open = openedAt(t);
            if (open.isPresent()) {
                return end(open.get().atZone(zone).toLocalDate());
            }
            LocalDate day = t.atZone(zone).toLocalDate();
            for (int i = 0; i <= 7; i++) {
                LocalDate d = day.plusDays(i);
                if (days.contains(d.getDayOfWeek()) && start(d).isAfter(t)) {
                    return start(d);
                }
            }
            throw new IllegalStateException("a weekly window with no day never opens");
        }

        private Instant start(LocalDate day) {
            return ZonedDateTime.of(day, from, zone).toInstant();
        }

        private Instant end(LocalDate day) {
            LocalDate last = to.isAfter(from) ? day : day.plusDays(1);
            return ZonedDateTime.of(last, to, zone).toInstant();
        }
    }

    /**
     * Open for {@code openFor} at the start of every {@code every}, counted from {@code anchor}: a short cycle, for a
     * demonstration or a test, or an interval that is not tied to the calendar.
     */
    record Cycle(Instant anchor, Duration every, Duration openFor) implements WindowSchedule {

        public Cycle {
            if (every.isZero()
                    || every.isNegative()
                    || openFor.isZero()
                    || openFor.isNegative()
                    || openFor.compareTo(every) >= 0) {
                throw new IllegalArgumentException(
                        "a cycle needs 0 < open-for < every, got open-for " + openFor + " every " + every);
            }
        }

        @Override
        public Optional<Instant> openedAt(Instant t) {
            if (t.isBefore(anchor)) {
                return Optional.empty();
            }
            Instant start = cycleStart(t);
            return t.isBefore(start.plus(openFor)) ? Optional.of(start) : Optional.empty();
        }

        @Override
        public Instant nextChange(Instant t) {
            if (t.isBefore(anchor)) {
                return anchor;
            }
            Instant start = cycleStart(t);
            Instant close = start.plus(openFor);
            return t.isBefore(close) ? close : start.plus(every);
        }

        private Instant cycleStart(Instant t) {
            long n = Duration.between(anchor, t).toMillis() / every.toMillis();
            return anchor.plus(every.multipliedBy(n));
        }
    }
}
