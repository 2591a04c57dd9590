package io.gdastreams.view;

import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.GaussianModel;
import io.gdastreams.math.PlaneClassifier;
import io.gdastreams.model.ModelParameters;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The XChart part of a {@link DecisionPlot}: frame, axes, title, legend, each class's 1σ and 2σ ellipses in the
 * plane ({@link Ellipses}) and the data points, over transparent backgrounds so that the {@link RegionRaster}
 * painted first shows through. Apart from the plot because it is all styling: what the picture says lives in
 * {@link DecisionPlot}, how it looks here.
 */
final class DecisionChart {

    private static final Color TRANSPARENT = new Color(0, 0, 0, 0);
    /** Classes named in the legend: a legend of hundreds is cropped to an unreadable middle; the title says so. */
    static final int MAX_LEGEND_CLASSES = 20;
    private static final Font TITLE_FONT = new Font(Font.SANS_SERIF, Font.BOLD, 14);

    private DecisionChart() {
    }

    /** The chart of {@code request} with axes fixed to {@code ranges} ({xMin, xMax, yMin, yMax}). */
    static XYChart of(DecisionPlot.Request request, GaussianModel fitted, PlaneClassifier plane,
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
        styler.setChartTitleFont(TITLE_FONT);
        styler.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        styler.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        styler.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        styler.setChartTitleBoxVisible(false);
        styler.setMarkerSize(7);
        styler.setXAxisDecimalPattern("0.0##");
        styler.setYAxisDecimalPattern("0.0##");
        styler.setAntiAlias(true);
        boolean points = request.data() != null && !request.data().points().isEmpty();
        // With points the legend names each class by its points' marker, and a class without points by its ellipse.
        Set<String> pointed = points ? request.data().points().stream().map(PlotData.Point::label)
                .collect(Collectors.toSet()) : Set.of();
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
                XYSeries series = chart.addSeries(unique(chart, name), ellipse[0], ellipse[1]);
                series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
                series.setMarker(SeriesMarkers.NONE);
                series.setLineColor(colour);
                series.setLineStyle(r == 1 ? SeriesLines.SOLID : SeriesLines.DASH_DASH);
                series.setLineWidth(r == 1 ? 2.0f : 1.5f);
                series.setShowInLegend(!pointed.contains(label) && r == 1 && k < MAX_LEGEND_CLASSES);
            }
        }
        if (points) {
            addPoints(chart, request.data(), colourIndex);
        }
        return chart;
    }

    /** One scatter series per label, in the classes' colour order; labels the model does not know share one. */
    private static void addPoints(XYChart chart, PlotData data, Map<String, Integer> colourIndex) {
        Map<String, List<double[]>> byLabel = new LinkedHashMap<>();
        for (String label : colourIndex.keySet().stream().sorted((a, b) -> colourIndex.get(a) - colourIndex.get(b))
                .toList()) {
            byLabel.put(label, new ArrayList<>());
        }
        List<double[]> others = new ArrayList<>();
        for (PlotData.Point p : data.points()) {
            (colourIndex.containsKey(p.label()) ? byLabel.get(p.label()) : others).add(new double[] {p.x(), p.y()});
        }
        for (Map.Entry<String, List<double[]>> e : byLabel.entrySet()) {
            int index = colourIndex.get(e.getKey());
            addScatter(chart, e.getKey(), e.getValue(), PlotPalette.of(index), PlotPalette.marker(index),
                    index < MAX_LEGEND_CLASSES);
        }
        addScatter(chart, "other labels", others, PlotPalette.UNKNOWN, SeriesMarkers.CIRCLE, true);
    }

    private static void addScatter(XYChart chart, String name, List<double[]> points, Color colour, Marker marker,
                                   boolean inLegend) {
        if (points.isEmpty()) {
            return;
        }
        double[] xs = points.stream().mapToDouble(p -> p[0]).toArray();
        double[] ys = points.stream().mapToDouble(p -> p[1]).toArray();
        XYSeries series = chart.addSeries(unique(chart, name), xs, ys);
        series.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        series.setMarker(marker);
        series.setMarkerColor(colour);
        series.setShowInLegend(inLegend);
    }

    /**
     * {@code name}, made distinct from the chart's series names by zero-width spaces (XChart refuses a name used
     * twice, and labels are free text: a class "a 1σ" beside class a's 1σ ellipse, or a class named "other labels").
     * The legend reads the same.
     */
    static String unique(XYChart chart, String name) {
        String candidate = name;
        while (chart.getSeriesMap().containsKey(candidate)) {
            candidate += "\u200B";
        }
        return candidate;
    }

    /** "   (sepal_length, sepal_width marginalised)": what the picture is of, said where one reads the axis. */
    static String marginalised(DecisionPlot.Request request) {
        List<String> others = new ArrayList<>(request.model().features());
        others.remove(request.x());
        others.remove(request.y());
        if (others.isEmpty()) {
            return "";
        }
        String listed = others.size() <= 3 ? String.join(", ", others) : others.size() + " other features";
        return "      (" + listed + " marginalised)";
    }

    /**
     * The title, fitted to the chart's width: what the picture is (model, version, classifier, decision rule) always;
     * then, while they fit, how many classes the legend names, the density contours and the ellipses' key, dropped in
     * the reverse order; a model id that still does not fit is shortened with "…".
     */
    static String title(DecisionPlot.Request request) {
        ModelParameters model = request.model();
        CovarianceType type = request.options().covarianceType();
        String classifier = type.classifier();
        String rule = request.rule().bind(model.classes().stream().map(c -> c.label()).toList()).rule();
        int classes = model.classes().size();
        List<String> optional = new ArrayList<>();
        if (classes > MAX_LEGEND_CLASSES) {
            optional.add(" · legend: first " + MAX_LEGEND_CLASSES + " of " + classes + " classes");
        }
        if (request.density()) {
            optional.add(" · log p(x) contours " + DecisionPlot.DENSITY_STEP + " nat apart");
        }
        optional.add(" · ellipses 1σ solid, 2σ dashed");
        String id = ModelTable.printable(model.modelId());
        Graphics2D graphics = new BufferedImage(1, 1, BufferedImage.TYPE_INT_ARGB).createGraphics();
        try {
            FontMetrics metrics = graphics.getFontMetrics(TITLE_FONT);
            int room = request.width() - 20;
            while (true) {
                String title = String.format(Locale.ROOT, "model '%s' v%d · %s (%s covariance)%s%s", id,
                        model.version(), classifier, type.name().toLowerCase(Locale.ROOT),
                        rule == null ? "" : " · decision: " + rule, String.join("", optional));
                if (metrics.stringWidth(title) <= room || (optional.isEmpty() && id.length() <= 8)) {
                    return title; // fits, or nothing is left to take out (XChart clips it)
                }
                if (!optional.isEmpty()) {
                    optional.remove(optional.size() - 1);
                } else {
                    id = id.substring(0, id.length() - (id.endsWith("…") ? 2 : 1)) + "…";
                }
            }
        } finally {
            graphics.dispose();
        }
    }
}
