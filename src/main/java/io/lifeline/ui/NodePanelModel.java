package io.lifeline.ui;

import io.lifeline.domain.fleet.NodeDetail;
import java.util.List;

/**
 * What the node panel shows.
 *
 * @param detail  the node with its GPUs' latest samples, XID history, notice and lemon score
 * @param jobs    the jobs with ranks on it
 */
public record NodePanelModel(NodeDetail detail, List<String> jobs) {}
