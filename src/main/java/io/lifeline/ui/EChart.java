package io.lifeline.ui;

import com.vaadin.flow.component.AttachEvent;
import com.vaadin.flow.component.ClientCallable;
import com.vaadin.flow.component.dependency.JavaScript;
import com.vaadin.flow.component.html.Div;
import java.util.function.Consumer;

/**
 * An Apache ECharts chart, loaded from its webjar (no frontend bundle rebuild) and driven with {@code executeJs}.
 * The server sends the whole option as JSON; a click on a data item comes back as the item's JSON value.
 *
 * <p>Accessibility: colours in the option may be Lumo custom properties ({@code "--lumo-secondary-text-color"});
 * they are resolved in the browser and again whenever the theme changes, so labels keep their contrast in both
 * themes. A chart is an image with a text description ({@link #setDescription}), or, for the fleet heat map
 * ({@link #setKeyboardGrid}), a keyboard-operable grid: arrow keys move a focused cell, a live region names it,
 * Enter opens it. Zooming reports the visible range back ({@link #onZoom}). An option may carry only a window of
 * its y axis' rows ({@code llWindow}: first row and row count, see {@code Charts.heatMap}); the chart lays them out
 * on the whole axis, and the zoom report is how the server learns which rows to send next.
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
              el.__llReportZoom = () => {
                clearTimeout(el.__zoomTimer);
                const m = el.__chart.getModel().getComponent('dataZoom', 0);
                if (m && el.__llZoomReported && el.$server && el.$server.zoomed) {
                  const v = m.getValueRange(), pc = m.getPercentRange();
                  el.$server.zoomed(Math.round(v[0]), Math.round(v[1]), pc[0] <= 0 && pc[1] >= 100);
                }
              };
              // Once the person pauses: a chart sent in windows shows blank rows until the server answers.
              el.__chart.on('datazoom', () => {
                clearTimeout(el.__zoomTimer);
                el.__zoomTimer = setTimeout(el.__llReportZoom, el.__llLoaded ? 120 : 400);
              });
              // Colours given as Lumo custom properties follow the theme: resolve them again when it changes.
              const again = new MutationObserver(() => el.__llApply && el.__llApply());
              again.observe(document.documentElement, {attributes: true, attributeFilter: ['theme']});
              again.observe(document.body, {attributes: true, attributeFilter: ['theme']});
              el.__llProbe = document.createElement('span');
              el.__llProbe.style.display = 'none';
              document.body.appendChild(el.__llProbe);
            }
            el.__llJson = $0;
            el.__llGrid = $1 ? JSON.parse($1) : null;
            el.__llZoomReported = $2;
            el.__llApply = () => {
              const colours = {};
              const resolve = v => {
                if (typeof v === 'string' && v.startsWith('--lumo-')) {
                  if (!(v in colours)) {
                    el.__llProbe.style.color = 'var(' + v + ')';
                    colours[v] = getComputedStyle(el.__llProbe).color;
                  }
                  return colours[v];
                }
                if (Array.isArray(v)) {
                  return v.map(resolve);
                }
                if (v && typeof v === 'object') {
                  const o = {};
                  for (const k in v) { o[k] = resolve(v[k]); }
                  return o;
                }
                return v;
              };
              const option = resolve(JSON.parse(el.__llJson));
              // A window of the y axis' rows: they are laid out at their places on the whole axis (blank labels
              // elsewhere), so the zoom bar shows where the window is.
              const w = option.llWindow;
              delete option.llWindow;
              el.__llLoaded = null;
              if (w) {
                const names = option.yAxis.data, all = new Array(w.total).fill('');
                names.forEach((n, i) => { all[w.first + i] = n; });
                option.yAxis.data = all;
                el.__llLoaded = {first: w.first, last: w.first + names.length - 1};
              }
              if (el.__llGrid) {
                window.__llHeatGrid(el, option);
              }
              el.__chart.setOption(option, true);
              if (el.__llGrid && el.__llFocus) {
                el.__llFocus();
              }
              el.setAttribute('data-rendered', String(Date.now()));
            };
            el.__llApply();
            """;

    /**
     * The heat map as a keyboard grid: the chart element takes the focus (role application, named), arrow keys move
     * the focused cell (Page Up/Down ten rows, Home/End the row's ends), its tooltip shows and the live region names
     * node, GPU and value in words; Enter or Space opens the node; the vertical zoom follows the focused row.
     */
    private static final String HEAT_GRID = """
            window.__llHeatGrid = window.__llHeatGrid || ((el, option) => {
              const g = el.__llGrid;
              const rows = option.yAxis.data, cols = option.xAxis.data;
              const data = option.series[0].data;
              const index = new Map();
              data.forEach((d, i) => {
                const v = Array.isArray(d) ? d : d.value;
                index.set(v[1] * cols.length + v[0], i);
              });
              const words = v => v == null ? 'no sample' : g.labels ? (g.labels[Math.round(v)] || String(v)) : v + g.unit;
              option.tooltip = Object.assign(option.tooltip || {}, {
                formatter: p => {
                  const v = Array.isArray(p.value) ? p.value : p.data.value;
                  return rows[v[1]] + ', ' + cols[v[0]] + ': ' + words(v[2]);
                }
              });
              el.__llCell = (r, c) => {
                const i = index.get(r * cols.length + c);
                if (i === undefined) { return {i: undefined, v: null}; }
                const d = data[i];
                return {i, v: (Array.isArray(d) ? d : d.value)[2]};
              };
              el.__llRows = rows.length;
              el.__llCols = cols.length;
              el.__llRowNames = rows;
              el.__llColNames = cols;
              el.__llWords = words;
              if (el.__llPos) {
                el.__llPos.r = Math.min(el.__llPos.r, rows.length - 1);
                el.__llPos.c = Math.min(el.__llPos.c, cols.length - 1);
              }
              if (el.__llKeys) { return; }
              el.__llKeys = true;
              el.setAttribute('tabindex', '0');
              el.setAttribute('role', 'application');
              el.setAttribute('aria-roledescription', 'heat map');
              const live = () => document.getElementById(el.__llGrid.live);
              el.__llFocus = (announce) => {
                const p = el.__llPos;
                if (!p || document.activeElement !== el || !el.__llRows) { return; }
                const ch = el.__chart;
                const cell = el.__llCell(p.r, p.c);
                const z = (ch.getOption().dataZoom || [])[0];
                if (z && z.startValue != null && (p.r < z.startValue || p.r > z.endValue)) {
                  const span = z.endValue - z.startValue;
                  const start = p.r < z.startValue ? p.r : p.r - span;
                  ch.dispatchAction({type: 'dataZoom', dataZoomIndex: 0, startValue: start, endValue: start + span});
                }
                ch.dispatchAction({type: 'downplay', seriesIndex: 0});
                const l = el.__llLoaded;
                if (l && (p.r < l.first || p.r > l.last)) {
                  // The row is not among those sent yet: ask for them now, name the cell once they are drawn.
                  el.__llPending = el.__llPending || announce;
                  ch.dispatchAction({type: 'hideTip'});
                  el.__llReportZoom();
                  return;
                }
                announce = announce || el.__llPending;
                el.__llPending = false;
                if (cell.i !== undefined) {
                  ch.dispatchAction({type: 'highlight', seriesIndex: 0, dataIndex: cell.i});
                  ch.dispatchAction({type: 'showTip', seriesIndex: 0, dataIndex: cell.i});
                } else {
                  ch.dispatchAction({type: 'hideTip'});
                }
                if (announce && live()) {
                  live().textContent = el.__llRowNames[p.r] + ', ' + el.__llColNames[p.c] + ': '
                      + el.__llWords(cell.v) + ' (node ' + (p.r + 1) + ' of ' + el.__llRows + ')';
                }
              };
              el.addEventListener('focus', () => {
                el.__llPos = el.__llPos || {r: 0, c: 0};
                el.__llFocus(true);
              });
              el.addEventListener('blur', () => {
                el.__chart.dispatchAction({type: 'hideTip'});
                el.__chart.dispatchAction({type: 'downplay', seriesIndex: 0});
              });
              el.addEventListener('keydown', e => {
                const p = el.__llPos || (el.__llPos = {r: 0, c: 0});
                const last = el.__llRows - 1, lastCol = el.__llCols - 1;
                let moved = true;
                switch (e.key) {
                  case 'ArrowUp': p.r = Math.max(0, p.r - 1); break;
                  case 'ArrowDown': p.r = Math.min(last, p.r + 1); break;
                  case 'ArrowLeft': p.c = Math.max(0, p.c - 1); break;
                  case 'ArrowRight': p.c = Math.min(lastCol, p.c + 1); break;
                  case 'PageUp': p.r = Math.max(0, p.r - 10); break;
                  case 'PageDown': p.r = Math.min(last, p.r + 10); break;
                  case 'Home': if (e.ctrlKey) { p.r = 0; } p.c = 0; break;
                  case 'End': if (e.ctrlKey) { p.r = last; } p.c = lastCol; break;
                  case 'Enter':
                  case ' ': {
                    moved = false;
                    e.preventDefault();
                    const cell = el.__llCell(p.r, p.c);
                    if (el.$server && el.$server.chartActivated) {
                      el.$server.chartActivated(JSON.stringify([p.c, p.r, cell.v]));
                    }
                    return;
                  }
                  case 'Escape':
                    el.__chart.dispatchAction({type: 'hideTip'});
                    return;
                  default: moved = false;
                }
                if (moved) {
                  e.preventDefault();
                  el.__llFocus(true);
                }
              });
            });
            """;

    private String option;
    private String grid;
    private Consumer<String> clickListener;
    private Consumer<String> activateListener;
    private ZoomListener zoomListener;

    /** The visible range after a zoom: from and to in the axis' unit (epoch millis on a time axis). */
    public interface ZoomListener {
        void zoomed(long from, long to, boolean whole);
    }

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
            draw();
        }
    }

    /** The option last set, for tests. */
    public String option() {
        return option;
    }

    /** A chart read as an image: what it shows, in words, for screen readers. */
    public void setDescription(String text) {
        getElement().setAttribute("role", "img");
        getElement().setAttribute("aria-label", text);
    }

    /**
     * Makes the chart a keyboard grid of its single heatmap series (see the class comment).
     *
     * @param label      the accessible name, with how to use the keys
     * @param liveRegion id of the element that announces the focused cell
     * @param labels     the words for values 0, 1, 2... (health), or null to show numbers with {@code unit}
     */
    public void setKeyboardGrid(String label, String liveRegion, java.util.List<String> labels, String unit) {
        getElement().setAttribute("aria-label", label);
        var o = Charts.JSON.createObjectNode().put("live", liveRegion).put("unit", unit == null ? "" : unit);
        if (labels != null) {
            var a = o.putArray("labels");
            labels.forEach(a::add);
        }
        String json = o.toString();
        if (!json.equals(grid)) {
            grid = json;
            if (isAttached() && option != null) {
                draw();
            }
        }
    }

    /** Called with the clicked item's value as JSON. */
    public void onClick(Consumer<String> listener) {
        this.clickListener = listener;
    }

    /** Called with the focused cell's value as JSON when Enter or Space is pressed on it. */
    public void onActivate(Consumer<String> listener) {
        this.activateListener = listener;
    }

    /** Called with the visible range after the person zoomed or panned. */
    public void onZoom(ZoomListener listener) {
        this.zoomListener = listener;
        if (isAttached() && option != null) {
            draw();
        }
    }

    @ClientCallable
    void chartClicked(String valueJson, String series) {
        if (clickListener != null) {
            clickListener.accept(valueJson);
        }
    }

    @ClientCallable
    void chartActivated(String valueJson) {
        if (activateListener != null) {
            activateListener.accept(valueJson);
        } else if (clickListener != null) {
            clickListener.accept(valueJson);
        }
    }

    /**
     * The browser's zoom report. Its range comes as doubles: Vaadin decodes a client call's numbers only as int or
     * double (a long parameter makes every call fail on the server), and epoch millis do not fit an int.
     */
    @ClientCallable
    void zoomed(double from, double to, boolean whole) {
        if (zoomListener != null) {
            zoomListener.zoomed(Math.round(from), Math.round(to), whole);
        }
    }

    private void draw() {
        if (grid != null) {
            getElement().executeJs(HEAT_GRID);
        }
        getElement().executeJs(SET_OPTION, option, grid, zoomListener != null);
    }

    @Override
    protected void onAttach(AttachEvent e) {
        super.onAttach(e);
        if (option != null) {
            draw();
        }
    }
}
