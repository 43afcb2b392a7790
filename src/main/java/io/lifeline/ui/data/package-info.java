/**
 * The dashboard's shared read of the model: {@link io.lifeline.ui.data.DashboardSnapshot} built by
 * {@link io.lifeline.ui.data.DashboardData}, and the fleet ETTR history ({@link io.lifeline.ui.data.EttrHistory}).
 */
package io.lifeline.ui.data;
