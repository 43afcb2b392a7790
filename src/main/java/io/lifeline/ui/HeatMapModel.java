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
        HEALTH("Health"), UTILISATION("Utilisation %"), TEMPERATURE("Temperature °C");

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
    public record Group(String label, int firstRow, int rows, int gpus, int unhealthy) {
    }

    /** The value of one cell. */
    public Double value(int row, int column) {
        return values.get(row * columns + column);
    }
}
