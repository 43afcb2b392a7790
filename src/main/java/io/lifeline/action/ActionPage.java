package io.lifeline.action;

import java.util.List;

/** A page of actions, newest first; {@code nextCursor} is null on the last page. */
public record ActionPage(List<ActionView> items, String nextCursor) {
}
