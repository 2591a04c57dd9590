package io.gdastreams.cli;

import io.gdastreams.lifecycle.ExitCodes;
import io.gdastreams.lifecycle.FileProblem;
import io.gdastreams.lifecycle.UserError;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.settings.AppConfig;
import io.gdastreams.view.ChartSupport;
import io.gdastreams.view.DecisionPlot;
import io.gdastreams.view.PlotData;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code gda-streams plot}: the decision regions of a model over two features, as PNG or SVG. */
@Command(name = "plot", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Draw a model's classifier in the plane of two features (--x, --y): each pixel coloured "
                + "by the class the scorer predicts there, the 1σ (solid) and 2σ (dashed) ellipses of each "
                + "class, and optionally the points of a CSV file coloured by their label (--data, --label) and "
                + "contours of log p(x) (--density).",
                "The other features are marginalised, as the scorer does for an event without them; for a "
                        + "Gaussian that is exact (the marginal of N(μ, Σ) on two coordinates).",
                "The model is a file (--model) or the newest record of --model-id on the model topic; it is "
                        + "fitted with --covariance (default gda.covariance) and the other fit keys as a scorer "
                        + "would. The file name's extension, .png or .svg, picks the format."})
final class PlotCommand implements Callable<Integer> {

    @ParentCommand
    private Main main;

    @Spec
    private CommandSpec spec;

    @Mixin
    private ModelOptions model;

    @Option(names = "--x", required = true, paramLabel = "FEATURE", description = "The horizontal feature.")
    private String x;

    @Option(names = "--y", required = true, paramLabel = "FEATURE", description = "The vertical feature.")
    private String y;

    @Option(names = "--data", paramLabel = "CSV", description = "Draw these points (needs --label).")
    private Path data;

    @Option(names = "--label", paramLabel = "COLUMN", description = "The label column of --data.")
    private String label;

    @Option(names = "--covariance", paramLabel = "full|tied|diag",
            description = "Fit with full (QDA), tied (LDA) or diag (naive Bayes) covariances; default from "
                    + "gda.covariance.")
    private String covariance;

    @Option(names = "--density", description = "Add contours of log p(x), one every "
            + DecisionPlot.DENSITY_STEP + " nat below its maximum in the frame, " + DecisionPlot.DENSITY_LEVELS
            + " of them.")
    private boolean density;

    @Option(names = "--output", required = true, paramLabel = "FILE", description = "The picture: .png or .svg.")
    private Path output;

    @Option(names = "--width", paramLabel = "PX", defaultValue = "1000",
            description = "Width in pixels, 800 to 4000 (default: ${DEFAULT-VALUE}).")
    private int width;

    @Option(names = "--height", paramLabel = "PX", defaultValue = "750",
            description = "Height in pixels, 600 to 4000 (default: ${DEFAULT-VALUE}).")
    private int height;

    @Mixin
    private ConfigOptions configOptions;

    @Mixin
    private ClusterTimeout clusterTimeout;

    @Override
    public Integer call() {
        DecisionPlot.Format format = validate();
        ChartSupport.require(); // before DecisionPlot, whose linking needs the chart classes
        // Before the first AWT class: no display is needed (or wanted) to draw into an image.
        System.setProperty("java.awt.headless", "true");
        AppConfig config = configOptions.load(main.environment(), ConfigOptions.fitOptions(covariance, null));
        ModelParameters model = InspectCommand.read(config, this.model, clusterTimeout,
                spec.commandLine().getErr()).model();
        PlotData points = data == null ? null : PlotData.read(data, x, y, label);
        DecisionPlot plot;
        try {
            plot = DecisionPlot.render(new DecisionPlot.Request(model, config.fitOptions(), config.decisionRule(), x, y,
                    points, density, width, height));
        } catch (IllegalArgumentException e) {
            throw new UserError("cannot plot model '" + model.modelId() + "' version " + model.version() + ": "
                    + e.getMessage());
        }
        try {
            plot.write(output, format);
        } catch (IOException e) {
            throw new UserError("cannot write " + output + ": " + FileProblem.reason(e));
        }
        PrintWriter err = spec.commandLine().getErr();
        err.printf(Locale.ROOT, "Wrote %s (%d×%d, %s): model '%s' version %d, %s × %s%s%n", output, width, height,
                format.name(), model.modelId(), model.version(), x, y, points == null ? ""
                        : String.format(Locale.ROOT, ", %,d points", points.points().size()));
        if (points != null && points.skipped() > 0) {
            err.printf(Locale.ROOT, "  %,d rows without a number in %s or %s were skipped%n", points.skipped(), x, y);
        }
        if (points != null && points.beyondBound() > 0) {
            err.printf(Locale.ROOT, "  %,d rows beyond the first %,d points were not drawn%n", points.beyondBound(),
                    PlotData.MAX_POINTS);
        }
        err.flush();
        return ExitCodes.OK;
    }

    private DecisionPlot.Format validate() {
        DecisionPlot.Format format = DecisionPlot.Format.of(output);
        if (format == null) {
            throw new UserError("--output " + output + ": the name must end in .png or .svg");
        }
        if (width < DecisionPlot.MIN_WIDTH || width > DecisionPlot.MAX_SIDE) {
            throw new UserError("--width must be between " + DecisionPlot.MIN_WIDTH + " and "
                    + DecisionPlot.MAX_SIDE + ", got " + width);
        }
        if (height < DecisionPlot.MIN_HEIGHT || height > DecisionPlot.MAX_SIDE) {
            throw new UserError("--height must be between " + DecisionPlot.MIN_HEIGHT + " and "
                    + DecisionPlot.MAX_SIDE + ", got " + height);
        }
        if ((data == null) != (label == null)) {
            throw new UserError("--data and --label go together: the points and the column that colours them");
        }
        return format;
    }
}
