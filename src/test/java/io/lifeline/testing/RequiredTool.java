package io.lifeline.testing;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;

/**
 * The outside programs some tests drive (Debian's Chromium, Prometheus, kubectl, ...). A test never skips because one
 * is missing: it fails and says how to install it, since {@code ./mvnw verify} installs them itself when run as root
 * ({@code .ci/setup}).
 */
public enum RequiredTool {
    CHROMIUM("/usr/bin/chromium", "chromium"),
    CHROMEDRIVER("/usr/bin/chromedriver", "chromium-driver"),
    PROMETHEUS("/usr/bin/prometheus", "prometheus"),
    PROMTOOL("/usr/bin/promtool", "prometheus"),
    ALERTMANAGER("/usr/bin/prometheus-alertmanager", "prometheus-alertmanager"),
    AMTOOL("/usr/bin/amtool", "prometheus-alertmanager"),
    KUBECTL("/usr/bin/kubectl", "kubernetes-client");

    @SuppressWarnings("ImmutableEnumChecker") // java.io.File is immutable
    private final File file;

    private final String debianPackage;

    RequiredTool(String path, String debianPackage) {
        this.file = new File(path);
        this.debianPackage = debianPackage;
    }

    /** The program's path, or the test fails naming the Debian package that brings it. */
    public String path() {
        return file().getPath();
    }

    /** The program's file, or the test fails naming the Debian package that brings it. */
    public File file() {
        if (!file.canExecute()) {
            fail(file + " is not installed: apt-get install -y " + debianPackage
                    + " (./mvnw verify installs it when run as root, through .ci/setup)");
        }
        return file;
    }
}
