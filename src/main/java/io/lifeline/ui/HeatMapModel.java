package io.lifeline.ui;

import java.util.List;

/**
 * The fleet heat map: one row per node (grouped by pool and zone), one column per GPU index.
 *
 * @param metric   what the colour shows
 * @param nodes    row labels, top to bottom
 * @param groups   the pool · zone groups, in row order
 * @param columns  GPU columns (the most GPUs any shown node has)
 * @param values   row-major cell values ({@code nodes.size() × columns}); null where a node has no such GPU
 *                 or no sample yet. Health is 0 healthy, 1 degraded, 2 failed.
 */
public record HeatMapModel(Metric metric, List<String> nodes, List<Group> groups, int columns, List<Double> values) {

    /** What the cells are coloured by. */
    public enum Metric {
        HEALTH("Health"),
        UTILISATION("Utilisation %"),
        TEMPERATURE("Temperature °C");

        private final String label;

        Metric(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * A run of rows of one pool and zone.
     *
     * @param label      "pool · zone"
     * @param firstRow   index of its first row
     * @param rows       how many rows
     * @param gpus       GPUs in it
     * @param unhealthy  degraded or failed GPUs in it
     */
    public record Group(String label, int firstRow, int rows, int gpus, int unhealthy) {}

    /** The value of one cell. */
    public Double value(int row, int column) {
        return values.get(row * columns + column);
    }

    /**
     * The rows of the map the browser is shown: the chart is sent these rows only, with the map's row count so that
     * its zoom bar spans the whole map (see {@link FleetPresenter#window}).
     *
     * @param map    the whole map
     * @param first  index of the window's first row
     * @param rows   how many rows it holds
     */
    public record Window(HeatMapModel map, int first, int rows) {

        /** Index of the window's last row (first − 1 when empty). */
        public int last() {
            return first + rows - 1;
        }

        /** Rows of the whole map. */
        public int total() {
            return map.nodes().size();
        }

        /** The window's row labels, top to bottom. */
        public List<String> nodes() {
            return map.nodes().subList(first, first + rows);
        }
    }
}
