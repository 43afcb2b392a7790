package io.lifeline.connector;

import java.util.Objects;

/**
 * An Auto Scaling lifecycle action held open by a termination hook: what {@code CompleteLifecycleAction} needs. Here,
 * not beside the AWS translator or the completion call, because it crosses from one to the other: read from a notice
 * coming in ({@code connector.inbound.cloud}), completed by a call going out ({@code connector.outbound.cloud}).
 *
 * @param autoScalingGroupName  the group
 * @param lifecycleHookName     the hook holding the instance in {@code Terminating:Wait}
 * @param token                 the action's {@code LifecycleActionToken}
 * @param instanceId            the EC2 instance
 * @param region                the group's region (the EventBridge event's {@code region})
 */
public record LifecycleAction(
        String autoScalingGroupName, String lifecycleHookName, String token, String instanceId, String region) {

    public LifecycleAction {
        Objects.requireNonNull(autoScalingGroupName, "autoScalingGroupName");
        Objects.requireNonNull(lifecycleHookName, "lifecycleHookName");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(instanceId, "instanceId");
        Objects.requireNonNull(region, "region");
    }
}
