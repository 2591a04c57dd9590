package io.gdastreams.view;

import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.svg.SVGProcessor;
import de.erichseifert.vectorgraphics2d.util.PageSize;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.Discriminant;
import io.gdastreams.math.FitOptions;
import io.gdastreams.math.GaussianModel;
import io.gdastreams.math.PlaneClassifier;
import io.gdastreams.math.Posterior;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.topology.ModelConversion;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.imageio.ImageIO;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The picture of a fitted classifier in the plane of two features: its decision regions (each pixel coloured by
 * the class the scorer predicts there, {@link PlaneClassifier}: the other features marginalised), the 1σ and 2σ
 * ellipses of each class's fitted Gaussian in that plane, optionally the data points coloured by their label and
 * contours of log p(x). XChart draws the frame (axes, title, legend, ellipses, points) over a raster of the regions
 * computed pixel by pixel, so the picture is the classifier's prediction at each pixel centre
 * ({@link Frame#xAt}, {@link Frame#yAt}), not an interpolation.
 */
public final class DecisionPlot {

    public static final int MIN_WIDTH = 800;
    public static final int MIN_HEIGHT = 600;
    /** Bounds the pixels scored (and the file): 4000 × 4000 is 16 M posteriors. */
    public static final int MAX_SIDE = 4000;
    /** Contours of log p(x) every DENSITY_STEP nats below its maximum in the frame, DENSITY_LEVELS of them. */
    public static final double DENSITY_STEP = 1.0;
    public static final int DENSITY_LEVELS = 12;
    /** Half-widths of the frame around each class: 3 marginal standard deviations. */
    private static final double FRAME_SIGMAS = 3.0;
    private static final double FRAME_PAD = 0.04;
    private static final Color TRANSPARENT = new Color(0, 0, 0, 0);

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
    public record Request(ModelParameters model, FitOptions options, String x, String y, PlotData data,
                          boolean density, int width, int height) {
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
                throw new IllegalArgumentException("'" + feature + "' is not a feature of the model (it has "
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
        PlaneClassifier plane = new PlaneClassifier(Discriminant.compile(fitted), features, request.x(), request.y());
        Map<String, Integer> colourIndex = new HashMap<>();
        for (ClassParameters c : model.classes()) {
            colourIndex.put(c.label(), colourIndex.size());
        }
        double[] ranges = ranges(fitted, plane, request.data());
        XYChart chart = chart(request, fitted, plane, colourIndex, ranges);
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
        BufferedImage regions = regions(plane, fitted, colourIndex, frame, left, right, top, bottom,
                request.density());
        return new DecisionPlot(request, chart, frame, regions, left, top);
    }

    public Frame frame() {
        return frame;
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

    private static BufferedImage regions(PlaneClassifier plane, GaussianModel fitted,
                                         Map<String, Integer> colourIndex, Frame frame, int left, int right,
                                         int top, int bottom, boolean density) {
        int width = right - left + 1;
        int height = bottom - top + 1;
        int[] colours = new int[fitted.labels().size()];
        for (int k = 0; k < colours.length; k++) {
            colours[k] = PlotPalette.region(colourIndex.get(fitted.labels().get(k))).getRGB();
        }
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        double[][] logDensity = density ? new double[height][width] : null;
        double max = Double.NEGATIVE_INFINITY;
        for (int row = 0; row < height; row++) {
            double y = frame.yAt(top + row);
            for (int column = 0; column < width; column++) {
                Posterior posterior = plane.score(frame.xAt(left + column), y);
                image.setRGB(column, row, colours[posterior.predicted()]);
                if (density) {
                    logDensity[row][column] = posterior.logDensity();
                    max = Math.max(max, posterior.logDensity());
                }
            }
        }
        if (density) {
            contours(image, logDensity, max);
        }
        return image;
    }

    /** A pixel is on a contour when the level band of log p(x) changes to its right or below it. */
    private static void contours(BufferedImage image, double[][] logDensity, double max) {
        int height = logDensity.length;
        int width = logDensity[0].length;
        int contour = PlotPalette.CONTOUR.getRGB();
        for (int row = 0; row < height; row++) {
            for (int column = 0; column < width; column++) {
                long band = band(logDensity[row][column], max);
                if (band >= DENSITY_LEVELS) {
                    continue;
                }
                boolean edge = column + 1 < width && band(logDensity[row][column + 1], max) != band
                        || row + 1 < height && band(logDensity[row + 1][column], max) != band;
                if (edge) {
                    image.setRGB(column, row, contour);
                }
            }
        }
    }

    private static long band(double logDensity, double max) {
        return (long) Math.floor((max - logDensity) / DENSITY_STEP);
    }

    /** {xMin, xMax, yMin, yMax}: every class's mean ± 3 marginal σ and every point, padded. */
    private static double[] ranges(GaussianModel fitted, PlaneClassifier plane, PlotData data) {
        double[] r = plane.classExtent(fitted, FRAME_SIGMAS);
        if (data != null) {
            for (PlotData.Point p : data.points()) {
                PlaneClassifier.include(r, 0, p.x(), p.x());
                PlaneClassifier.include(r, 2, p.y(), p.y());
            }
        }
        PlaneClassifier.pad(r, FRAME_PAD);
        return r;
    }

    private static XYChart chart(Request request, GaussianModel fitted, PlaneClassifier plane,
                                 Map<String, Integer> colourIndex, double[] ranges) {
        XYChart chart = new XYChartBuilder().width(request.width()).height(request.height())
                .title(title(request)).xAxisTitle(request.x() + marginalised(request)).yAxisTitle(request.y()).build();
        XYStyler styler = chart.getStyler();
        // Transparent: the regions are painted first and must show through.
        styler.setChartBackgroundColor(TRANSPARENT);
        styler.setPlotBackgroundColor(TRANSPARENT);
        styler.setPlotGridLinesVisible(false);
        styler.setPlotContentSize(1.0); // the data ranges fill the plot area, as the regions do
        styler.setXAxisMin(ranges[0]).setXAxisMax(ranges[1]).setYAxisMin(ranges[2]).setYAxisMax(ranges[3]);
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        styler.setLegendBackgroundColor(Color.WHITE);
        styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        styler.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        styler.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        styler.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        styler.setChartTitleBoxVisible(false);
        styler.setMarkerSize(7);
        styler.setXAxisDecimalPattern("0.0##");
        styler.setYAxisDecimalPattern("0.0##");
        styler.setAntiAlias(true);
        boolean points = request.data() != null && !request.data().points().isEmpty();
        double[][] means = fitted.means();
        for (int k = 0; k < fitted.labels().size(); k++) {
            String label = fitted.labels().get(k);
            Color colour = PlotPalette.of(colourIndex.get(label));
            double[][] covariance = fitted.covariance(k);
            int xi = plane.xIndex();
            int yi = plane.yIndex();
            double[][] planar = {{covariance[xi][xi], covariance[xi][yi]}, {covariance[yi][xi], covariance[yi][yi]}};
            double[] mean = {means[k][xi], means[k][yi]};
            for (int r = 1; r <= 2; r++) {
                double[][] ellipse = Ellipses.of(mean, planar, r);
                String name = points || r == 2 ? label + " " + r + "σ" : label;
                XYSeries series = chart.addSeries(name, ellipse[0], ellipse[1]);
                series.setXYSeriesRenderStyle(org.knowm.xchart.XYSeries.XYSeriesRenderStyle.Line);
                series.setMarker(SeriesMarkers.NONE);
                series.setLineColor(colour);
                series.setLineStyle(r == 1 ? SeriesLines.SOLID : SeriesLines.DASH_DASH);
                series.setLineWidth(r == 1 ? 2.0f : 1.5f);
                series.setShowInLegend(!points && r == 1);
            }
        }
        if (points) {
            addPoints(chart, request.data(), colourIndex);
        }
        return chart;
    }

    private static void addPoints(XYChart chart, PlotData data, Map<String, Integer> colourIndex) {
        Map<String, List<double[]>> byLabel = new java.util.LinkedHashMap<>();
        for (String label : colourIndex.keySet().stream().sorted((a, b) -> colourIndex.get(a) - colourIndex.get(b))
                .toList()) {
            byLabel.put(label, new ArrayList<>());
        }
        String other = "other labels";
        for (PlotData.Point p : data.points()) {
            String key = colourIndex.containsKey(p.label()) ? p.label() : other;
            byLabel.computeIfAbsent(key, k -> new ArrayList<>()).add(new double[] {p.x(), p.y()});
        }
        for (Map.Entry<String, List<double[]>> e : byLabel.entrySet()) {
            if (e.getValue().isEmpty()) {
                continue;
            }
            double[] xs = e.getValue().stream().mapToDouble(p -> p[0]).toArray();
            double[] ys = e.getValue().stream().mapToDouble(p -> p[1]).toArray();
            XYSeries series = chart.addSeries(e.getKey(), xs, ys);
            series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
            series.setMarker(SeriesMarkers.CIRCLE);
            Integer index = colourIndex.get(e.getKey());
            series.setMarkerColor(index == null ? PlotPalette.UNKNOWN : PlotPalette.of(index));
        }
    }

    /** "   (sepal_length, sepal_width marginalised)": what the picture is of, said where one reads the axis. */
    static String marginalised(Request request) {
        List<String> others = new ArrayList<>(request.model().features());
        others.remove(request.x());
        others.remove(request.y());
        if (others.isEmpty()) {
            return "";
        }
        String listed = others.size() <= 3 ? String.join(", ", others) : others.size() + " other features";
        return "      (" + listed + " marginalised)";
    }

    static String title(Request request) {
        ModelParameters model = request.model();
        CovarianceType type = request.options().covarianceType();
        String classifier = switch (type) {
            case FULL -> "QDA";
            case TIED -> "LDA";
            case DIAG -> "naive Bayes";
        };
        return String.format(Locale.ROOT, "model '%s' v%d · %s (%s covariance) · ellipses 1σ solid, 2σ dashed%s",
                model.modelId(), model.version(), classifier, type.name().toLowerCase(Locale.ROOT),
                request.density() ? " · log p(x) contours " + DENSITY_STEP + " nat apart" : "");
    }
}
