/** What actions need from the outside world: the cluster and the training runtime. */
package io.lifeline.action.port;
