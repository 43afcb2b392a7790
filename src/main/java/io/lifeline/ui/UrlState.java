package io.lifeline.ui;

import com.vaadin.flow.component.UI;
import com.vaadin.flow.router.Location;
import com.vaadin.flow.router.QueryParameters;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A view's state in its URL's query parameters, so a pasted link opens the same view: read in {@code beforeEnter},
 * written with {@code history.replaceState} on every change (a filter is not a navigation: Back leaves the page).
 * Enum values are written in lower case ({@code health=failed}) and read in any case; unknown values are ignored.
 */
final class UrlState {

    private UrlState() {}

    static String single(Map<String, List<String>> params, String name) {
        List<String> v = params.get(name);
        return v == null || v.isEmpty() || v.get(0).isBlank() ? null : v.get(0).trim();
    }

    static <E extends Enum<E>> E enumValue(Map<String, List<String>> params, String name, Class<E> type) {
        String v = single(params, name);
        if (v == null) {
            return null;
        }
        String wanted = v.replace('-', '_').toUpperCase(Locale.ROOT);
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(wanted)) {
                return e;
            }
        }
        return null;
    }

    static boolean flag(Map<String, List<String>> params, String name) {
        String v = single(params, name);
        return v != null && (v.equals("1") || v.equalsIgnoreCase("true") || v.equalsIgnoreCase("yes"));
    }

    static String wire(Enum<?> e) {
        return e == null ? null : e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Replaces the current history entry with {@code path?params} (null and blank values left out). */
    static void replace(String path, Map<String, String> params) {
        UI ui = UI.getCurrent();
        if (ui == null) {
            return;
        }
        Map<String, List<String>> q = new LinkedHashMap<>();
        params.forEach((k, v) -> {
            if (v != null && !v.isBlank()) {
                q.put(k, List.of(v));
            }
        });
        ui.getPage().getHistory().replaceState(null, new Location(path, new QueryParameters(q)));
    }
}
