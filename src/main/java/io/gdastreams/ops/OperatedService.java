package io.gdastreams.ops;

import io.gdastreams.config.Role;
import io.gdastreams.lifecycle.FileProblem;
import io.gdastreams.lifecycle.UserError;
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
import java.io.IOException;
import java.io.PrintWriter;
import java.security.GeneralSecurityException;
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
        OpsRoutes routes = null;
        OpsServer server;
        try {
            // The routes before the socket: a configuration they refuse must not leave a bound port behind.
            routes = config.httpPort().isEmpty() ? null : new OpsRoutes(health, metrics, config.modelId(),
                    metrics::currentModel, config.scoringSettings().fitOptions(),
                    config.scoringSettings().decisionRule(), scoring, config.httpSecurity().protectMetrics());
            server = routes == null ? null : openServer(config);
        } catch (RuntimeException e) {
            if (routes != null) {
                routes.close();
            }
            metrics.close();
            throw e;
        }
        try (ProgressLog progress = new ProgressLog(role, metrics)) {
            if (server != null) {
                routes.install(server).start();
                out.printf("%s: HTTP endpoint on %s (/ dashboard, /health/live, /health/ready, /metrics, /models/%s%s)"
                        + "%s%n", role, server.url(), config.modelId(), scoring != null ? ", POST /score" : "",
                        server.hasToken() ? "; bearer token required" : "");
                server.exposure().ifPresent(warning -> out.printf("%s: WARNING: %s%n", role, warning));
                out.flush();
            }
            List<String> idle = HttpSecurity.keysWithoutEndpoint(config);
            if (!idle.isEmpty()) {
                // A token file or keystore named but never read would otherwise look accepted.
                out.printf("%s: note: %s set but gda.http.port is not: no HTTP endpoint, so %s%n", role,
                        String.join(", ", idle), idle.size() == 1 ? "it has no effect" : "they have no effect");
                out.flush();
            }
            progress.start(config.progressInterval());
            Consumer<StreamsApp> onStart = app -> {
                health.follow(app);
                metrics.follow(app::restoring, app::heldInputs);
                if (server != null) {
                    metrics.bind(app.kafkaStreams());
                }
            };
            return ServiceRunner.run(role, topology, config, out, onStart, metrics);
        } finally {
            if (server != null) {
                routes.close();
                server.close();
            }
            metrics.close();
        }
    }

    private static OpsServer openServer(AppConfig config) {
        HttpSecurity security = config.httpSecurity();
        try {
            return EndpointSocket.open(config.httpHost(), config.httpPort().getAsInt(), config.httpMaxRequestBytes(),
                    security);
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            // The message of a keystore error names the file or the algorithm, never the password.
            throw new UserError("cannot serve HTTP" + (security.tls().isPresent() ? "S" : "") + " on "
                    + config.httpHost() + ":" + config.httpPort().getAsInt()
                    + " (gda.http.host, gda.http.port, gda.http.tls.*): " + (e instanceof IOException io
                    ? FileProblem.reason(io) + (io instanceof java.nio.file.FileSystemException f ? " (" + f.getFile()
                    + ")" : "") : e.getMessage()), e);
        }
    }
}
