package io.lifeline.runtime;

import io.lifeline.codec.EventCodec;
import io.lifeline.config.CheckpointsConfig;
import io.lifeline.config.HangsConfig;
import io.lifeline.config.ModelLimitsConfig;
import io.lifeline.config.PoliciesConfig;
import io.lifeline.config.StorageConfig;
import io.lifeline.config.StragglersConfig;
import io.lifeline.domain.fleet.AdmissionSettings;
import io.lifeline.domain.job.JobLimits;
import io.lifeline.domain.job.JobsConfig;
import io.lifeline.domain.job.checkpoint.CheckpointStorage;
import io.lifeline.domain.job.checkpoint.TrustRules;
import io.lifeline.domain.job.hang.HangSettings;
import io.lifeline.domain.job.straggler.StragglerConfig;
import io.lifeline.domain.storage.StorageSettings;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** Beans for plain classes that the core and the edges share. */
public class Producers {

    @Produces
    @Singleton
    Clock clock(@ConfigProperty(name = "lifeline.clock.fixed") Optional<Instant> fixed) {
        // A fixed clock makes "now"-based figures (freshness, wall time) reproducible for tests and demos.
        return fixed.map(t -> Clock.fixed(t, ZoneOffset.UTC)).orElseGet(Clock::systemUTC);
    }

    @Produces
    @Singleton
    EventCodec codec() {
        return new EventCodec();
    }

    @Produces
    @Singleton
    LiveModel model(
            Clock clock,
            CheckpointsConfig checkpoints,
            StragglersConfig stragglers,
            ModelLimitsConfig limits,
            HangsConfig hangs,
            StorageConfig storage,
            PoliciesConfig policies) {
        List<String> shared = checkpoints.sharedPaths().orElse(List.of());
        // Named roots first, then the shared file systems: each is a target of its own.
        List<String> roots = new java.util.ArrayList<>(storage.roots().orElse(List.of()));
        roots.addAll(shared);
        StorageSettings defaults = StorageSettings.defaults();
        LiveModel model = LiveModel.create(
                clock,
                JobsConfig.defaults().withCheckpointStorage(new CheckpointStorage(shared)),
                new StorageSettings(
                        storage.retentionCheckpoints(),
                        roots,
                        defaults.samples(),
                        defaults.maxTargets(),
                        defaults.maxJobsPerTarget(),
                        storage.idleAfter()));
        model.jobs()
                .configureStragglers(new StragglerConfig(
                        stragglers.window(),
                        stragglers.minExcess(),
                        stragglers.madFactor(),
                        stragglers.flagAfter(),
                        stragglers.clearAfter(),
                        stragglers.maxRanks()));
        model.jobs()
                .configureHangs(new HangSettings(
                        hangs.floor(),
                        hangs.ceiling(),
                        hangs.stepMultiple(),
                        hangs.startup(),
                        hangs.saveMultiple(),
                        hangs.saveFloor(),
                        hangs.phaseDefault(),
                        hangs.phases(),
                        hangs.liveness()));
        model.jobs()
                .configureLimits(new JobLimits(
                        limits.maxJobs(), limits.maxJobsPerNamespace(), limits.unstartedJobsForgetAfter()));
        model.fleet().limitNodes(limits.maxNodes());
        model.fleet()
                .admissionSettings(new AdmissionSettings(
                        policies.admissionFailures().threshold(),
                        policies.admissionFailures().window()));
        model.jobs().configureTrust(new TrustRules(checkpoints.suspectLossFactor()));
        return model;
    }
}
