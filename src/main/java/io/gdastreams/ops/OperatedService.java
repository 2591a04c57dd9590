package io.gdastreams.ops;

import io.gdastreams.config.Role;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.service.GroupCommittedInput;
import io.gdastreams.service.ServiceRunner;
import io.gdastreams.service.StreamsApp;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.settings.HttpSecurity;
import io.gdastreams.topology.LiveScoring;
import io.gdastreams.topology.ScorerFit;
import io.gdastreams.topology.TrainingSettings;
import io.gdastreams.topology.TrainingTopology;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.streams.Topology;

/**
 * {@code train} and {@code score} as operated services: {@link ServiceRunner} runs the topology, and around it this
 * class keeps the process's figures ({@link OpsMetrics}, told by the topology through its
 * {@link io.gdastreams.topology.StreamObserver}), logs a {@link ProgressLog} line per interval and, when
 * {@code gda.http.port} is set, serves the HTTP endpoint ({@link OpsRoutes}) on {@code gda.http.host}.
 */
public final class OperatedService {

    private OperatedService() {
    }

    /** {@code train}: the training topology until Ctrl-C; returns the exit code. */
    public static int train(AppConfig config, PrintWriter out) {
        // Read before anything touches the cluster: a combination only the training settings refuse (a resetting
        // drift action without the drift test) is a configuration error, exit 2, with no topic created first.
        TrainingSettings settings = config.trainingSettings();
        OpsMetrics metrics = OpsMetrics.forTrainer(config.modelId(), Clock.systemUTC());
        Health health = new Health(Role.TRAINING, metrics::currentModel, Optional::empty,
                metrics::modelHeld);
        return run(Role.TRAINING, () -> TrainingTopology.build(settings, GroupCommittedInput::open, metrics), config,
                out, metrics, health, null);
    }

    /** {@code score}: the scoring topology until Ctrl-C; returns the exit code. */
    public static int score(AppConfig config, PrintWriter out) {
        AtomicReference<LiveScoring> scoring = new AtomicReference<>();
        Supplier<Optional<ModelParameters>> inForce = () -> scoring.get() == null ? Optional.empty()
                : scoring.get().modelInForce();
        OpsMetrics metrics = new OpsMetrics(inForce, Clock.systemUTC());
        metrics.scorerFit(ScorerFit.of(config.scoringSettings()));
        scoring.set(new LiveScoring(config.scoringSettings(), metrics));
        return run(Role.SCORING, scoring.get()::topology, config, out, metrics,
                new Health(Role.SCORING, inForce, scoring.get()::notScoring), scoring.get());
    }

    private static int run(Role role, Supplier<Topology> topology, AppConfig config, PrintWriter out,
                           OpsMetrics metrics, Health health, LiveScoring scoring) {
        boolean http = config.httpPort().isPresent() || config.httpManagementPort().isPresent();
        OpsRoutes routes = null;
        Endpoints endpoints;
        try {
            // The routes before the sockets: a configuration they refuse must not leave a bound port behind.
            routes = !http ? null : new OpsRoutes(health, metrics, config.modelId(), metrics::currentModel,
                    config.scoringSettings().fitOptions(), config.scoringSettings().decisionRule(), scoring,
                    config.httpSecurity().protectMetrics());
            endpoints = routes == null ? null : Endpoints.open(config, routes);
        } catch (RuntimeException e) {
            if (routes != null) {
                routes.close();
            }
            metrics.close();
            throw e;
        }
        try (ProgressLog progress = new ProgressLog(role, metrics)) {
            if (endpoints != null) {
                endpoints.start(role, config.modelId(), scoring != null, out);
            }
            List<String> idle = HttpSecurity.keysWithoutEndpoint(config);
            if (!idle.isEmpty()) {
                // A token file or keystore named but never read would otherwise look accepted.
                out.printf("%s: note: %s set but neither gda.http.port nor gda.http.management-port is: no HTTP"
                        + " endpoint, so %s%n", role,
                        String.join(", ", idle), idle.size() == 1 ? "it has no effect" : "they have no effect");
                out.flush();
            }
            if (HttpSecurity.managementHostWithoutListener(config)) {
                out.printf("%s: note: gda.http.management-host set but gda.http.management-port is not: no management"
                        + " listener, so it has no effect%n", role);
                out.flush();
            }
            progress.start(config.progressInterval());
            Consumer<StreamsApp> onStart = app -> {
                health.follow(app);
                progress.follow(app::runningAt);
                metrics.follow(app::restoring, app::heldInputs);
                if (endpoints != null) {
                    metrics.bind(app.kafkaStreams());
                }
                if (scoring != null) {
                    app.whenStarted(scoring::restored);
                }
            };
            return ServiceRunner.run(role, topology, config, out, onStart, metrics);
        } finally {
            if (endpoints != null) {
                endpoints.close();
            }
            metrics.close();
        }
    }
}
