package io.lifeline.ui;

import com.vaadin.flow.component.AttachEvent;
import com.vaadin.flow.component.ClientCallable;
import com.vaadin.flow.component.dependency.JavaScript;
import com.vaadin.flow.component.html.Div;
import java.util.function.Consumer;

/**
 * An Apache ECharts chart, loaded from its webjar (no frontend bundle rebuild) and driven with {@code executeJs}.
 * The server sends the whole option as JSON; a click on a data item comes back as the item's JSON value.
 */
@JavaScript("context://webjars/echarts/5.3.1/dist/echarts.min.js")
public class EChart extends Div {

    private static final String SET_OPTION = """
            const el = this;
            if (!el.__chart) {
              el.__chart = echarts.init(el, null, {renderer: 'canvas'});
              new ResizeObserver(() => el.__chart && el.__chart.resize()).observe(el);
              el.__chart.on('click', p => {
                if (el.$server && el.$server.chartClicked) {
                  el.$server.chartClicked(JSON.stringify(p.value === undefined ? null : p.value), p.seriesName || '');
                }
              });
            }
            el.__chart.setOption(JSON.parse($0), true);
            el.setAttribute('data-rendered', String(Date.now()));
            """;

    private String option;
    private Consumer<String> clickListener;

    public EChart(String height) {
        addClassName("ll-chart");
        setWidthFull();
        setHeight(height);
    }

    /** Replaces the chart's option (a JSON object), unless it is the one shown already. */
    public void setOption(String json) {
        if (json.equals(option)) {
            return;
        }
        option = json;
        if (isAttached()) {
            getElement().executeJs(SET_OPTION, json);
        }
    }

    /** The option last set, for tests. */
    public String option() {
        return option;
    }

    /** Called with the clicked item's value as JSON. */
    public void onClick(Consumer<String> listener) {
        this.clickListener = listener;
    }

    @ClientCallable
    void chartClicked(String valueJson, String series) {
        if (clickListener != null) {
            clickListener.accept(valueJson);
        }
    }

    @Override
    protected void onAttach(AttachEvent e) {
        super.onAttach(e);
        if (option != null) {
            getElement().executeJs(SET_OPTION, option);
        }
    }
}
