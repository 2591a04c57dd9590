package io.gdastreams.view;

import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.svg.SVGProcessor;
import de.erichseifert.vectorgraphics2d.util.PageSize;
import io.gdastreams.math.DecisionRule;
import io.gdastreams.math.Discriminant;
import io.gdastreams.math.FitOptions;
import io.gdastreams.math.GaussianModel;
import io.gdastreams.math.PlaneClassifier;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.topology.ModelConversion;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

/**
 * The picture of a fitted classifier in the plane of two features: its decision regions (each pixel coloured by
 * the class the scorer predicts there, {@link PlaneClassifier}: the other features marginalised), the 1σ and 2σ
 * ellipses of each class's fitted Gaussian in that plane, optionally the data points coloured by their label and
 * contours of log p(x). XChart draws the frame (axes, title, legend, ellipses, points) over a raster of the regions
 * computed pixel by pixel, so the picture is the classifier's prediction at each pixel centre
 * ({@link Frame#xAt}, {@link Frame#yAt}), not an interpolation.
 *
 * <p>This class lays the picture out and writes it; its parts are {@link PlotRanges} (what the frame spans),
 * {@link DecisionChart} (the XChart drawing: axes, title, legend, ellipses, points) and {@link RegionRaster} (the
 * regions and density contours, scored pixel by pixel).
 */
public final class DecisionPlot {

    public static final int MIN_WIDTH = 800;
    public static final int MIN_HEIGHT = 600;
    /** Bounds the pixels scored (and the file): 4000 × 4000 is 16 M posteriors. */
    public static final int MAX_SIDE = 4000;
    /** Contours of log p(x) every DENSITY_STEP nats below its maximum in the frame, DENSITY_LEVELS of them. */
    public static final double DENSITY_STEP = 1.0;
    public static final int DENSITY_LEVELS = 12;

    /** PNG or SVG, from the file name. */
    public enum Format {
        PNG, SVG;

        /** The format the name of {@code file} asks for, or null. */
        public static Format of(Path file) {
            String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
            return name.endsWith(".png") ? PNG : name.endsWith(".svg") ? SVG : null;
        }
    }

    /**
     * What to draw. {@code data}: may be null (no points). {@code width} × {@code height}: pixels, each within
     * [MIN, MAX_SIDE].
     */
    public record Request(ModelParameters model, FitOptions options, DecisionRule rule, String x, String y,
                          PlotData data, boolean density, int width, int height) {

        /** Regions of the most probable class (no {@code gda.decision.*} rule). */
        public Request(ModelParameters model, FitOptions options, String x, String y, PlotData data, boolean density,
                       int width, int height) {
            this(model, options, new DecisionRule.MostProbable(), x, y, data, density, width, height);
        }
    }

    /**
     * Where the data lie in the picture: the ranges of x and y and the screen coordinates of their ends. Pixel
     * (column, row) has its centre at (column + 0.5, row + 0.5).
     */
    public record Frame(double xMin, double xMax, double yMin, double yMax, double left, double right, double top,
                        double bottom) {

        /** The column whose pixel holds x. */
        public int column(double x) {
            return (int) Math.floor(left + (x - xMin) / (xMax - xMin) * (right - left));
        }

        /** The row whose pixel holds y (rows grow downwards). */
        public int row(double y) {
            return (int) Math.floor(top + (yMax - y) / (yMax - yMin) * (bottom - top));
        }

        /** x at the centre of {@code column}. */
        public double xAt(int column) {
            return xMin + (column + 0.5 - left) / (right - left) * (xMax - xMin);
        }

        /** y at the centre of {@code row}. */
        public double yAt(int row) {
            return yMax - (row + 0.5 - top) / (bottom - top) * (yMax - yMin);
        }
    }

    private final Request request;
    private final XYChart chart;
    private final Frame frame;
    private final BufferedImage regions;
    private final int regionLeft;
    private final int regionTop;

    private DecisionPlot(Request request, XYChart chart, Frame frame, BufferedImage regions, int regionLeft,
                         int regionTop) {
        this.request = request;
        this.chart = chart;
        this.frame = frame;
        this.regions = regions;
        this.regionLeft = regionLeft;
        this.regionTop = regionTop;
    }

    /** The names the legend shows, in order (for tests). */
    List<String> legend() {
        return chart.getSeriesMap().values().stream().filter(XYSeries::isShowInLegend).map(XYSeries::getName)
                .toList();
    }

    /**
     * Fits the model with the options as a scorer does and lays the picture out. Throws IllegalArgumentException
     * when x or y is not a continuous feature of the model, they are the same, or every class is left out.
     */
    public static DecisionPlot render(Request request) {
        ChartSupport.require();
        ModelParameters model = request.model();
        List<String> features = model.features();
        for (String feature : List.of(request.x(), request.y())) {
            if (!features.contains(feature)) {
                boolean categorical = model.categorical().stream().anyMatch(t -> t.feature().equals(feature));
                throw new IllegalArgumentException("'" + feature + "' is not " + (categorical
                        ? "a continuous feature of the model (it is categorical; plot draws the plane of two"
                        + " continuous features" : "a feature of the model (it has") + ": "
                        + String.join(", ", features) + ")");
            }
        }
        if (request.x().equals(request.y())) {
            throw new IllegalArgumentException("--x and --y are the same feature");
        }
        GaussianModel fitted = GaussianModel.fit(ModelConversion.classSummaries(model), request.options());
        if (fitted.labels().isEmpty()) {
            throw new IllegalArgumentException("every class is left out by the fit");
        }
        PlaneClassifier plane = new PlaneClassifier(Discriminant.compile(fitted), features, request.x(), request.y(),
                request.rule());
        Map<String, Integer> colourIndex = new HashMap<>();
        for (ClassParameters c : model.classes()) {
            colourIndex.put(c.label(), colourIndex.size());
        }
        double[] ranges = PlotRanges.of(fitted, plane, request.data());
        XYChart chart = DecisionChart.of(request, fitted, plane, colourIndex, ranges);
        // A first paint lays the chart out: only then does it know where the data ranges fall on the screen.
        BufferedImage layout = new BufferedImage(request.width(), request.height(), BufferedImage.TYPE_INT_ARGB);
        Graphics2D g = layout.createGraphics();
        chart.paint(g, request.width(), request.height());
        g.dispose();
        Frame frame = new Frame(ranges[0], ranges[1], ranges[2], ranges[3], chart.getScreenXFromChart(ranges[0]),
                chart.getScreenXFromChart(ranges[1]), chart.getScreenYFromChart(ranges[3]),
                chart.getScreenYFromChart(ranges[2]));
        int left = (int) Math.ceil(frame.left() - 0.5);
        int right = (int) Math.floor(frame.right() - 0.5);
        int top = (int) Math.ceil(frame.top() - 0.5);
        int bottom = (int) Math.floor(frame.bottom() - 0.5);
        BufferedImage regions = RegionRaster.of(plane, fitted, colourIndex, frame, left, right, top, bottom,
                request.density());
        return new DecisionPlot(request, chart, frame, regions, left, top);
    }

    public Frame frame() {
        return frame;
    }

    /** The regions' raster alone (no chart over it), for tests. */
    BufferedImage regions() {
        return regions;
    }

    /** The chart drawn over the regions, for tests. */
    XYChart chart() {
        return chart;
    }

    /** Writes the picture to {@code file} in {@code format}. */
    public void write(Path file, Format format) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            if (format == Format.PNG) {
                BufferedImage image = new BufferedImage(request.width(), request.height(),
                        BufferedImage.TYPE_INT_RGB);
                Graphics2D g = image.createGraphics();
                paint(g);
                g.dispose();
                ImageIO.write(image, "png", out);
            } else {
                VectorGraphics2D g = new VectorGraphics2D();
                paint(g);
                new SVGProcessor().getDocument(g.getCommands(), new PageSize(0, 0, request.width(),
                        request.height())).writeTo(out);
            }
        }
    }

    /** White, the regions' raster, then the chart with transparent backgrounds on top. */
    private void paint(Graphics2D g) {
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, request.width(), request.height());
        g.drawImage(regions, regionLeft, regionTop, null);
        chart.paint(g, request.width(), request.height());
    }
}
