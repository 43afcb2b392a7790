package io.lifeline.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.vaadin.flow.component.ClientCallable;
import com.vaadin.flow.internal.JsonCodec;
import com.vaadin.flow.internal.ReflectTools;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** What the browser calls on a chart reaches it: Vaadin can decode each argument, and a zoom reports its range. */
class EChartTest {

    /**
     * Vaadin decodes a client call's JSON arguments only as String, int, double, boolean or JSON (a long, say, fails
     * every call on the server while the browser shows nothing), so each parameter must be one of those.
     */
    @Test
    void everyClientCallableTakesArgumentsVaadinDecodes() {
        List<Method> callables = Arrays.stream(EChart.class.getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(ClientCallable.class))
                .toList();
        assertThat(callables).extracting(Method::getName).contains("zoomed", "chartClicked", "chartActivated");
        for (Method m : callables) {
            for (Class<?> p : m.getParameterTypes()) {
                assertThat(JsonCodec.canEncodeWithoutTypeInfo(ReflectTools.convertPrimitiveType(p)))
                        .as("%s(%s)", m.getName(), p.getSimpleName())
                        .isTrue();
            }
        }
    }

    @Test
    void aZoomReportsItsRangeRoundedToTheAxisUnit() {
        EChart chart = new EChart("100px");
        AtomicReference<String> got = new AtomicReference<>();
        chart.onZoom((from, to, whole) -> got.set(from + ".." + to + (whole ? " whole" : "")));
        chart.zoomed(1_764_700_000_123.0, 1_764_700_060_456.6, false);
        assertThat(got.get()).isEqualTo("1764700000123..1764700060457");
        chart.zoomed(0, 69, true);
        assertThat(got.get()).isEqualTo("0..69 whole");
    }
}
