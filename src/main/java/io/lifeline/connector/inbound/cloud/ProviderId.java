package io.lifeline.connector.inbound.cloud;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A Kubernetes Node's {@code spec.providerID}, taken apart:
 * <ul>
 *   <li>AWS: {@code aws:///us-east-1a/i-0abc123} (zone optional) → provider {@code aws}, instance {@code i-0abc123};</li>
 *   <li>Azure: {@code azure:///subscriptions/S/resourceGroups/G/providers/Microsoft.Compute/virtualMachines/NAME}
 *       → instance {@code NAME}; a scale-set instance
 *       {@code .../virtualMachineScaleSets/SET/virtualMachines/N} → instance {@code SET_N};</li>
 *   <li>GCP: {@code gce://PROJECT/ZONE/NAME} → provider {@code gcp}, instance {@code NAME}.</li>
 * </ul>
 *
 * @param provider    {@code aws}, {@code azure} or {@code gcp}
 * @param zone        availability zone, null when the id has none
 * @param instanceId  the id the provider's notices name the machine by
 * @param raw         the provider id as given
 */
public record ProviderId(String provider, String zone, String instanceId, String raw) {

    public static final String AWS = "aws";
    public static final String AZURE = "azure";
    public static final String GCP = "gcp";

    /** Parses a provider id; throws {@link IllegalArgumentException} naming what is wrong. */
    public static ProviderId parse(String providerId) {
        if (providerId == null || providerId.isBlank()) {
            throw new IllegalArgumentException("provider id is empty");
        }
        int sep = providerId.indexOf("://");
        if (sep <= 0) {
            throw new IllegalArgumentException("provider id '" + providerId + "' has no scheme (like aws://)");
        }
        String scheme = providerId.substring(0, sep).toLowerCase(Locale.ROOT);
        List<String> parts = segments(providerId.substring(sep + 3));
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("provider id '" + providerId + "' names no instance");
        }
        return switch (scheme) {
            case "aws" ->
                new ProviderId(
                        AWS,
                        parts.size() > 1 ? parts.get(parts.size() - 2) : null,
                        parts.get(parts.size() - 1),
                        providerId);
            case "azure" -> azure(parts, providerId);
            case "gce" -> {
                if (parts.size() != 3) {
                    throw new IllegalArgumentException(
                            "GCE provider id '" + providerId + "' is not gce://PROJECT/ZONE/NAME");
                }
                yield new ProviderId(GCP, parts.get(1), parts.get(2), providerId);
            }
            default ->
                throw new IllegalArgumentException("unsupported provider '" + scheme + "' in '" + providerId + "'");
        };
    }

    private static ProviderId azure(List<String> parts, String raw) {
        int vm = lastIndexOfIgnoreCase(parts, "virtualMachines");
        if (vm < 0 || vm + 1 >= parts.size()) {
            throw new IllegalArgumentException("Azure provider id '" + raw + "' has no virtualMachines/NAME");
        }
        String name = parts.get(vm + 1);
        if (vm >= 2 && parts.get(vm - 2).equalsIgnoreCase("virtualMachineScaleSets")) {
            name = parts.get(vm - 1) + "_" + name;
        }
        return new ProviderId(AZURE, null, name, raw);
    }

    private static List<String> segments(String path) {
        List<String> out = new ArrayList<>();
        for (String s : path.split("/")) {
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }

    private static int lastIndexOfIgnoreCase(List<String> parts, String word) {
        for (int i = parts.size() - 1; i >= 0; i--) {
            if (parts.get(i).equalsIgnoreCase(word)) {
                return i;
            }
        }
        return -1;
    }
}
