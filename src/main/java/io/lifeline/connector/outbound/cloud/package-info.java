/**
 * Calls to the cloud providers: {@link io.lifeline.connector.outbound.cloud.LifecycleCompletions} completes the AWS
 * Auto Scaling lifecycle action of a drained node ({@link io.lifeline.connector.outbound.cloud.AwsAutoScalingApi},
 * signed with {@link io.lifeline.connector.outbound.cloud.SigV4}), as aws-node-termination-handler does in queue
 * mode. The action itself ({@link io.lifeline.connector.LifecycleAction}) is read from the notice coming in.
 */
package io.lifeline.connector.outbound.cloud;
