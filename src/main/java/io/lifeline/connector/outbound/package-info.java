/**
 * What goes out: Lifeline's decisions carried to the world. {@code command} (trainer commands to every channel, the
 * agents' command queue), {@code kafka} (the commands topic), {@code kube} (cordon, eviction, scaling, suspension,
 * Kueue priority boosts and cost annotations on the cluster) and {@code cloud} (completing AWS Auto Scaling
 * lifecycle actions). Each call is idempotent and answers a typed outcome. Nothing here uses
 * {@code connector.inbound}.
 */
package io.lifeline.connector.outbound;
