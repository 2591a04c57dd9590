package io.gdastreams.cli;

import io.gdastreams.config.Role;
import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.lifecycle.RunFailure;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.sample.ModelSource;
import io.gdastreams.service.ApplicationReset;
import io.gdastreams.service.ClusterProbe;
import io.gdastreams.service.HeldEventsOnBroker;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.topology.InternalTopics;
import io.gdastreams.topology.ModelSigning;
import io.gdastreams.topology.ScoringTopology;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gda-streams reset}: remove an application's internal topics, offsets and local state (dry run first). */
@Command(name = "reset", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Reset the training and/or scoring application of this configuration, so that it starts "
                + "again from the beginning of its input: delete its consumer group (the committed offsets), "
                + "its internal topics (<application.id>-<store>-changelog and the trainer's "
                + "<application.id>-class-stats-partials-repartition, named exactly) and its local state "
                + "directory (<state.dir>/<application.id>, on this machine).",
                "For training, the newest model the trainer published is handed over first: republished one "
                        + "version above with no trainer, so that the retrained trainer publishes above it "
                        + "instead of refusing to go back below its lineage.",
                "A dry run by default: it lists what would go. --execute removes it; every instance of the "
                        + "application must be stopped (one still in the group is refused). The labelled, "
                        + "unlabelled, model, predictions and dead-letter topics are never touched.",
                "A scorer reset answers every event still on the unlabelled topic again, unless --keep-offsets "
                        + "keeps its committed offsets."})
final class ResetCommand implements Callable<Integer> {

    private static final int LISTED_OFFSETS = 10;

    @ParentCommand
    private Main main;

    @Spec
    private CommandSpec spec;

    @Option(names = "--role", paramLabel = "training|scoring|both", defaultValue = "both",
            description = "Which application (default: ${DEFAULT-VALUE}).")
    private String role;

    @Option(names = "--execute", description = "Remove what the dry run lists.")
    private boolean execute;

    @Option(names = "--keep-offsets", description = "With --role scoring: keep the scorer's committed offsets, so "
            + "that it goes on after the last event it answered instead of answering every event on the unlabelled "
            + "topic again. Events it holds awaiting a model (in the changelog a reset deletes) are read again: "
            + "their partitions go back to the earliest of them.")
    private boolean keepOffsets;

    @Mixin
    private ConfigOptions configOptions;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "Wait this long for each answer of the cluster (default: ${DEFAULT-VALUE}).")
    private long timeoutSeconds;

    @Override
    public Integer call() {
        List<Role> roles = switch (role) {
            case "training" -> List.of(Role.TRAINING);
            case "scoring" -> List.of(Role.SCORING);
            case "both" -> List.of(Role.TRAINING, Role.SCORING);
            default -> throw new UserError("--role must be training, scoring or both, got '" + role + "'");
        };
        if (keepOffsets && roles.contains(Role.TRAINING)) {
            throw new UserError("--keep-offsets is for --role scoring only: a trainer's committed offsets go with its"
                    + " statistics (kept, the retrained trainer would skip every event before them)");
        }
        Duration timeout = ClusterTimeout.of(timeoutSeconds);
        AppConfig config = configOptions.load(main.environment());
        PrintWriter out = spec.commandLine().getOut();
        Properties adminProperties = new Properties();
        adminProperties.putAll(config.clientProperties());
        adminProperties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
        ClusterProbe.awaitReachable(config.bootstrapServers(), config.clientProperties(), timeout, "--timeout");
        try (Admin admin = Admin.create(adminProperties)) {
            List<ApplicationReset.Plan> plans = new ArrayList<>();
            for (Role r : roles) {
                Properties streams = config.streamsProperties(r);
                String applicationId = streams.getProperty("application.id");
                plans.add(ApplicationReset.plan(admin, applicationId,
                        ApplicationReset.stateDirectory(streams, applicationId), timeout));
            }
            // Read only while no instance runs: a running scorer's open transactions would read as a stopped one's.
            HeldEventsOnBroker.Held held = keepOffsets && plans.get(0).members() == 0 ? HeldEventsOnBroker.read(
                    admin, InternalTopics.changelog(plans.get(0).applicationId(), ScoringTopology.PENDING_STORE),
                    config.bootstrapServers(), config.clientProperties(), timeout) : HeldEventsOnBroker.Held.NONE;
            HeldEventsOnBroker.Rewind rewind = keepOffsets ? HeldEventsOnBroker.rewind(admin, held,
                    config.topics().unlabelled().name(), plans.get(0).committed(), timeout)
                    : HeldEventsOnBroker.Rewind.NONE;
            if (keepOffsets) {
                plans.set(0, plans.get(0).keepingOffsets(rewind.offsets()));
            }
            if (execute) {
                // Before the plan is shown as being carried out.
                for (ApplicationReset.Plan plan : plans) {
                    if (plan.members() > 0) {
                        throw new UserError("application '" + plan.applicationId() + "' still has " + plan.members()
                                + " running instance(s) in its group: stop every instance of it first");
                    }
                }
                if (rewind.refusal() != null) {
                    throw new UserError(refused(rewind, plans.get(0)));
                }
            }
            ModelSigning signing = ModelSigning.parse(config.signingKeys());
            ModelParameters handedOver = roles.contains(Role.TRAINING) ? trainersModel(config, timeout, signing) : null;
            out.println(execute ? "Resetting:" : "Dry run (nothing is changed; --execute does it):");
            for (ApplicationReset.Plan plan : plans) {
                describe(plan, out);
            }
            if (roles.contains(Role.TRAINING)) {
                out.println(handedOver == null
                        ? "  model '" + config.modelId() + "': nothing to hand over (no model of this trainer is "
                        + "the newest on " + config.topics().model() + ")"
                        : "  model '" + config.modelId() + "' version " + handedOver.version() + " (published by "
                        + handedOver.trainer() + "): republished as version " + (handedOver.version() + 1)
                        + " with no trainer, so that the retrained trainer publishes above it");
            }
            if (keepOffsets) {
                out.println("  scorer: " + keptOffsets(plans.get(0), held, rewind, config));
            } else if (roles.contains(Role.SCORING)) {
                out.println("  scorer: reads " + config.topics().unlabelled() + " from its earliest offset, so every"
                        + " event still on it is answered again (a second prediction with the same id; "
                        + "--keep-offsets keeps the offsets instead)");
            }
            out.flush();
            if (!execute) {
                return ExitCodes.OK;
            }
            if (handedOver != null) {
                ApplicationReset.releaseModel(config.topics().model(), handedOver, config.bootstrapServers(),
                        // In milliseconds, as the trainer stamps its models.
                        config.clientProperties(), Clock.systemUTC().instant().truncatedTo(ChronoUnit.MILLIS),
                        timeout, signing);
            }
            for (ApplicationReset.Plan plan : plans) {
                ApplicationReset.execute(admin, plan, timeout);
                out.println("Reset " + plan.applicationId() + (plan.isEmpty() ? " (there was nothing)" : ""));
            }
            out.flush();
        }
        return ExitCodes.OK;
    }

    /**
     * The newest model under the model id (the newest the keys verify, with keys) when this configuration's trainer
     * published it; otherwise null. Keys that verify no record are an error (exit 2): a hand-over of nothing would
     * leave the retrained trainer behind the lineage its own signed models published.
     */
    private static ModelParameters trainersModel(AppConfig config, Duration timeout, ModelSigning signing) {
        ModelParameters newest;
        try {
            newest = ModelSource.readTopicRecord(config.topics().modelRecords(), config.modelId(),
                    config.bootstrapServers(), config.clientProperties(), timeout, signing).model();
        } catch (ModelSource.NoVerifiedRecord e) {
            throw e;
        } catch (UserError e) {
            return null; // no topic, no model, a tombstone or an invalid record: nothing of this trainer's
        }
        String trainer = config.streamsProperties(Role.TRAINING).getProperty("application.id");
        return trainer.equals(newest.trainer()) ? newest : null;
    }

    /** What --keep-offsets does to the scorer, for the plan's listing. */
    private static String keptOffsets(ApplicationReset.Plan plan, HeldEventsOnBroker.Held held,
                                      HeldEventsOnBroker.Rewind rewind, AppConfig config) {
        if (plan.members() > 0) {
            return "keeps its committed offsets; the events it holds are read once every instance has stopped";
        }
        if (rewind.refusal() != null) {
            return refused(rewind, plan);
        }
        if (plan.committed().isEmpty()) {
            return "has no committed offset to keep: reads " + config.topics().unlabelled() + " from its earliest"
                    + " offset" + (held.count() == 0 ? "" : ", the " + held.count() + " event(s) it holds included");
        }
        if (held.count() == 0) {
            return "keeps its committed offsets and goes on after the last event it answered (no event awaits a"
                    + " model in its changelog)";
        }
        return "keeps its committed offsets but for the " + held.count() + " event(s) it holds awaiting a model,"
                + " which go with its changelog: their partitions go back to the earliest of them ("
                + ApplicationReset.listed(plan.rewind(), Integer.MAX_VALUE)
                + "), to be read and held again; what it answered after them there (unscored: past gda.pending.max"
                + " or too large to hold; or dead-lettered) is answered again";
    }

    private static String refused(HeldEventsOnBroker.Rewind rewind, ApplicationReset.Plan plan) {
        return "--keep-offsets refused: scorer '" + plan.applicationId() + "' holds events awaiting a model in "
                + InternalTopics.changelog(plan.applicationId(), ScoringTopology.PENDING_STORE) + ", the only copy"
                + " a reset would delete, and cannot read them again: " + rewind.refusal() + ". A reset without"
                + " --keep-offsets answers every event still on the unlabelled topic again";
    }

    private static void describe(ApplicationReset.Plan plan, PrintWriter out) {
        out.println("  application '" + plan.applicationId() + "':");
        out.println("    internal topics: " + (plan.internalTopics().isEmpty() ? "none"
                : plan.internalTopics().size() + ": " + String.join(", ", plan.internalTopics())));
        if (!plan.groupExists()) {
            out.println("    consumer group: none");
        } else {
            String offsets = ApplicationReset.listed(plan.committed(), LISTED_OFFSETS);
            out.println(String.format(Locale.ROOT, "    consumer group '%s': %d member(s)%s; committed offsets of "
                    + "%d partition(s)%s", plan.applicationId(), plan.members(), plan.members() > 0
                    ? " (RUNNING: stop them before --execute)" : "", plan.committed().size(),
                    plan.committed().isEmpty() ? "" : ": " + offsets) + (plan.keepOffsets() ? " (kept)" : ""));
        }
        out.println("    local state: " + plan.stateDirectory() + (plan.stateExists() ? "" : " (none)"));
    }
}
