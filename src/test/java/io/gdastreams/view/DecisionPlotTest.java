package io.gdastreams.view;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.gdastreams.fixtures.Iris;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.Estimator;
import io.gdastreams.math.FitOptions;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.serde.Json;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The picture is the classifier: read back from the PNG, the region colour under each Iris point is the class that
 * numpy predicts there (src/test/resources/fixtures/make_golden.py, the two-feature sepal cases: a fit on the two
 * features alone, which is what marginalising the other two gives for a Gaussian).
 */
class DecisionPlotTest {

    /**
     * Points whose golden posterior is below this may lie within a pixel or two of a boundary: not checked (a pixel
     * is about 0.006 cm of sepal here).
     */
    private static final double CONFIDENT = 0.9;
    /** An ellipse's stroke may cover a point: the nearest region pixel within this many pixels is read instead. */
    private static final int SEARCH = 2;
    /** Iris points checked at least (the rest are near a boundary: versicolor and virginica overlap in sepals). */
    private static final int MIN_CHECKED = 40;

    private static JsonNode golden;

    @TempDir
    Path dir;

    @BeforeAll
    static void readGolden() throws IOException {
        golden = Json.mapper().readTree(Files.readAllBytes(Path.of("src/test/resources/fixtures/iris_golden.json")));
    }

    private static FitOptions options(String covariance) {
        return FitOptions.defaults().withCovarianceType(CovarianceType.valueOf(covariance.toUpperCase()))
                .withEstimator(Estimator.MLE).withVarianceFloor(golden.get("varianceFloor").asDouble())
                .withRegParam(golden.get("regParam").asDouble()).withMinCount(golden.get("minCount").asLong());
    }

    private static JsonNode sepalCase(String covariance) {
        for (JsonNode c : golden.get("cases")) {
            if (c.get("features").size() == 2 && c.get("covarianceType").asText().equals(covariance)
                    && c.get("estimator").asText().equals("mle")) {
                return c;
            }
        }
        throw new AssertionError("no golden case " + covariance);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"full", "tied", "diag"})
    void shouldColourEachIrisPointsRegionAsNumpyClassifiesIt(String covariance) throws IOException {
        ModelParameters model = Iris.model("iris", 7, Iris.rows());
        DecisionPlot plot = DecisionPlot.render(new DecisionPlot.Request(model, options(covariance), "sepal_length",
                "sepal_width", null, false, 1000, 750));
        Path png = dir.resolve("plot.png");
        plot.write(png, DecisionPlot.Format.PNG);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1000, image.getWidth());
        assertEquals(750, image.getHeight());

        Map<Integer, String> regionColours = new HashMap<>();
        List<String> labels = List.of("setosa", "versicolor", "virginica"); // model order: first seen in iris.csv
        for (int k = 0; k < labels.size(); k++) {
            regionColours.put(PlotPalette.region(k).getRGB() & 0xffffff, labels.get(k));
        }
        int checked = 0;
        for (JsonNode row : sepalCase(covariance).get("rows")) {
            String expected = null;
            double best = 0;
            for (Iterator<Map.Entry<String, JsonNode>> it = row.get("probabilities").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> p = it.next();
                if (p.getValue().asDouble() > best) {
                    best = p.getValue().asDouble();
                    expected = p.getKey();
                }
            }
            double x = row.get("x").get(0).asDouble();
            double y = row.get("x").get(1).asDouble();
            String drawn = regionAround(image, regionColours, plot.frame().column(x), plot.frame().row(y));
            if (best < CONFIDENT || drawn == null) {
                continue; // near a boundary, or an ellipse is drawn over the point
            }
            assertEquals(expected, drawn, "row " + row.get("row") + " at (" + x + ", " + y + ")");
            checked++;
        }
        System.out.println(covariance + ": " + checked + " Iris points checked");
        assertTrue(checked >= MIN_CHECKED, "only " + checked + " points checked");
    }

    /**
     * A threshold rule draws its own regions: "virginica at p ≥ 0.05" predicts virginica wherever the most probable
     * class is virginica (its p ≥ 1/3 ≥ 0.05 there) and in more places besides, so the virginica pixels of the
     * threshold picture strictly contain those of the argmax picture, pixel for pixel.
     */
    @Test
    void shouldDrawTheRegionsOfTheDecisionRule() {
        ModelParameters model = Iris.model("iris", 7, Iris.rows());
        int virginica = PlotPalette.region(2).getRGB();
        // Wide enough for both titles to keep every part: the plot area then has the same size in both.
        BufferedImage argmax = DecisionPlot.render(new DecisionPlot.Request(model, options("full"), "sepal_length",
                "sepal_width", null, false, 900, 300)).regions();
        BufferedImage threshold = DecisionPlot.render(new DecisionPlot.Request(model, options("full"),
                new io.gdastreams.math.DecisionRule.Threshold("virginica", 0.05), "sepal_length", "sepal_width",
                null, false, 900, 300)).regions();
        assertEquals(argmax.getHeight(), threshold.getHeight());
        int before = 0;
        int after = 0;
        for (int column = 0; column < argmax.getWidth(); column++) {
            for (int row = 0; row < argmax.getHeight(); row++) {
                boolean was = argmax.getRGB(column, row) == virginica;
                boolean is = threshold.getRGB(column, row) == virginica;
                before += was ? 1 : 0;
                after += is ? 1 : 0;
                assertTrue(!was || is, "argmax virginica pixel (" + column + ", " + row + ") lost");
            }
        }
        assertTrue(before > 0 && after > before + before / 10, before + " -> " + after + " virginica pixels");
    }

    private static String regionAround(BufferedImage image, Map<Integer, String> regionColours, int column,
                                       int row) {
        for (int radius = 0; radius <= SEARCH; radius++) {
            for (int dc = -radius; dc <= radius; dc++) {
                for (int dr = -radius; dr <= radius; dr++) {
                    String label = regionColours.get(image.getRGB(column + dc, row + dr) & 0xffffff);
                    if (label != null) {
                        return label;
                    }
                }
            }
        }
        return null;
    }

    /** Pixel → data → pixel is the identity: the test above reads the pixel the picture was computed for. */
    @Test
    void shouldMapPixelsAndDataBothWays() {
        ModelParameters model = Iris.model("iris", 7, Iris.rows());
        DecisionPlot.Frame frame = DecisionPlot.render(new DecisionPlot.Request(model, FitOptions.defaults(),
                "petal_length", "petal_width", null, false, 800, 600)).frame();
        assertTrue(frame.left() < frame.right() && frame.top() < frame.bottom());
        for (int column : new int[] {(int) frame.left() + 1, 400, (int) frame.right() - 1}) {
            assertEquals(column, frame.column(frame.xAt(column)));
        }
        for (int row : new int[] {(int) frame.top() + 1, 300, (int) frame.bottom() - 1}) {
            assertEquals(row, frame.row(frame.yAt(row)));
        }
    }

    @Test
    void shouldWriteAnSvgOfTheRequestedSizeWithTheRegionsEmbedded() throws IOException {
        ModelParameters model = Iris.model("iris", 7, Iris.rows());
        DecisionPlot plot = DecisionPlot.render(new DecisionPlot.Request(model, FitOptions.defaults(),
                "petal_length", "petal_width", null, true, 900, 700));
        Path svg = dir.resolve("plot.svg");
        plot.write(svg, DecisionPlot.Format.SVG);
        String text = Files.readString(svg, StandardCharsets.UTF_8);
        assertTrue(text.contains("<svg"), text.substring(0, 200));
        assertTrue(text.contains("width=\"900") && text.contains("height=\"700"), text.substring(0, 400));
        assertTrue(text.contains("data:image/png;base64,"), "the regions' raster is embedded");
    }

    @Test
    void shouldRefuseAFeatureTheModelDoesNotHave() {
        ModelParameters model = Iris.model("iris", 7, Iris.rows());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DecisionPlot.render(
                new DecisionPlot.Request(model, FitOptions.defaults(), "petal_length", "colour", null, false, 800,
                        600)));
        assertTrue(e.getMessage().contains("'colour' is not a feature"), e.getMessage());
    }

    /**
     * Labels are free text: a class "setosa 1σ" beside setosa's 1σ ellipse, or a class named "other labels" beside
     * the points of labels the model does not know, gave two series one name, which XChart refuses (exit 2 from
     * plot). Unknown labels keep their own grey series.
     */
    @Test
    void shouldDrawClassesWhoseLabelsLookLikeTheChartsOwnSeriesNames() throws IOException {
        ModelParameters iris = Iris.model("iris", 7, Iris.rows());
        List<String> labels = List.of("setosa", "setosa 1σ", "other labels");
        List<ClassParameters> classes = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            ClassParameters c = iris.classes().get(k);
            classes.add(new ClassParameters(labels.get(k), c.count(), c.prior(), c.mean(), c.covariance()));
        }
        ModelParameters model = new ModelParameters(iris.modelId(), iris.version(), iris.features(),
                iris.totalCount(), classes, iris.sources(), iris.updatedAt(), iris.trainer());
        PlotData data = new PlotData(List.of(new PlotData.Point(5.0, 3.4, "setosa"),
                new PlotData.Point(6.0, 2.8, "setosa 1σ"), new PlotData.Point(6.5, 3.0, "other labels"),
                new PlotData.Point(6.4, 3.1, "zzz")), 0, 0);
        DecisionPlot plot = DecisionPlot.render(new DecisionPlot.Request(model, FitOptions.defaults(),
                "sepal_length", "sepal_width", data, false, 800, 600));
        Path png = dir.resolve("labels.png");
        plot.write(png, DecisionPlot.Format.PNG);
        assertEquals(800, ImageIO.read(png.toFile()).getWidth());
    }

    /**
     * With points, the legend names every class: by its points' marker when it has points, else by its 1σ ellipse.
     * Classes without points had no entry (their regions and ellipses no key).
     */
    @Test
    void shouldNameEveryClassInTheLegendWhenOnlySomeHavePoints() {
        ModelParameters iris = Iris.model("iris", 7, Iris.rows());
        PlotData data = new PlotData(List.of(new PlotData.Point(5.0, 3.4, "setosa"),
                new PlotData.Point(6.4, 3.1, "zzz")), 0, 0);
        DecisionPlot plot = DecisionPlot.render(new DecisionPlot.Request(iris, FitOptions.defaults(),
                "sepal_length", "sepal_width", data, false, 800, 600));
        assertEquals(List.of("versicolor 1σ", "virginica 1σ", "setosa", "other labels"), plot.legend());
        DecisionPlot bare = DecisionPlot.render(new DecisionPlot.Request(iris, FitOptions.defaults(),
                "sepal_length", "sepal_width", null, false, 800, 600));
        assertEquals(List.of("setosa", "versicolor", "virginica"), bare.legend());
    }

    /**
     * The title fits the chart: a long model id with a decision rule and density contours pushed it off both edges;
     * the ellipses' key and the contours' note go first, and a legend of more than 20 classes says it names 20.
     */
    @Test
    void shouldFitTheTitleToTheChartAndSayWhenTheLegendIsCut() {
        ModelParameters iris = Iris.model("fraud-detector-eu-west-1-production-canary", 4, Iris.rows());
        DecisionPlot.Request request = new DecisionPlot.Request(iris, FitOptions.defaults(),
                new io.gdastreams.math.DecisionRule.Threshold("virginica", 0.2), "sepal_length", "sepal_width", null,
                true, 800, 600);
        String title = DecisionChart.title(request);
        assertTrue(title.contains("decision: ") && title.contains("fraud-detector"), title);
        assertTrue(titleWidth(title) <= 780, title);
        assertTrue(DecisionChart.title(new DecisionPlot.Request(iris, FitOptions.defaults(), "sepal_length",
                "sepal_width", null, true, 2400, 600)).endsWith("ellipses 1σ solid, 2σ dashed"), "room for all");

        List<ClassParameters> classes = new ArrayList<>();
        for (int k = 0; k < 25; k++) {
            ClassParameters c = iris.classes().get(k % 3);
            classes.add(new ClassParameters("c" + k, c.count(), 1.0 / 25, c.mean(), c.covariance()));
        }
        ModelParameters many = new ModelParameters("m", 1, iris.features(), 25 * 50, classes, iris.sources(),
                iris.updatedAt(), iris.trainer());
        assertTrue(DecisionChart.title(new DecisionPlot.Request(many, FitOptions.defaults(), "sepal_length",
                "sepal_width", null, false, 2400, 600)).contains("legend: first 20 of 25 classes"));
    }

    /**
     * Class k ≥ 10 has the colour of class k mod 10: c0 and c10 (same diagonal covariance, equal counts, means apart
     * in sepal_length only) meet on the vertical line x = (μ0 + μ10) / 2, where the raster draws a line in their
     * colour, one pixel per row at the first column past it; nothing else of the picture is that colour (c1 … c9,
     * at c0's mean with a smaller prior, win nowhere). c10's points are squares, c0's circles. Three Iris classes
     * draw no such line.
     */
    @Test
    void shouldPartTwoClassesOfOneColourByALineAndByTheShapeOfTheirPoints() {
        ModelParameters iris = Iris.model("iris", 7, Iris.rows());
        ClassParameters setosa = iris.classes().get(0);
        double shift = 1.0;
        List<ClassParameters> classes = new ArrayList<>();
        for (int k = 0; k <= 10; k++) {
            double[] mean = setosa.mean().clone();
            mean[0] += k == 10 ? shift : 0.0;
            long count = k == 0 || k == 10 ? 50 : 2;
            classes.add(new ClassParameters("c" + k, count, count / 118.0, mean, setosa.covariance()));
        }
        ModelParameters model = new ModelParameters("m", 1, iris.features(), 118, classes, iris.sources(),
                iris.updatedAt(), iris.trainer());
        PlotData data = new PlotData(List.of(new PlotData.Point(5.0, 3.4, "c0"),
                new PlotData.Point(6.0, 3.4, "c10")), 0, 0);
        DecisionPlot plot = DecisionPlot.render(new DecisionPlot.Request(model, options("diag"), "sepal_length",
                "sepal_width", data, false, 800, 600));
        BufferedImage regions = plot.regions();
        int line = PlotPalette.of(0).getRGB();
        int tint = PlotPalette.region(0).getRGB();
        double boundary = setosa.mean()[0] + shift / 2;
        DecisionPlot.Frame frame = plot.frame();
        int left = (int) Math.ceil(frame.left() - 0.5);
        for (int row = 0; row < regions.getHeight(); row++) {
            int lines = 0;
            for (int column = 0; column < regions.getWidth(); column++) {
                int rgb = regions.getRGB(column, row);
                assertTrue(rgb == line || rgb == tint,
                        "pixel (" + column + ", " + row + ") " + Integer.toHexString(rgb));
                if (rgb == line) {
                    lines++;
                    assertTrue(frame.xAt(left + column - 1) < boundary && frame.xAt(left + column) >= boundary,
                            "line at column " + column + " of row " + row + ", boundary x = " + boundary);
                }
            }
            assertEquals(1, lines, "row " + row);
        }
        assertEquals(SeriesMarkers.SQUARE, plot.chart().getSeriesMap().get("c10").getMarker());
        assertEquals(SeriesMarkers.CIRCLE, plot.chart().getSeriesMap().get("c0").getMarker());

        BufferedImage three = DecisionPlot.render(new DecisionPlot.Request(iris, options("full"), "sepal_length",
                "sepal_width", null, false, 800, 600)).regions();
        for (int row = 0; row < three.getHeight(); row++) {
            for (int column = 0; column < three.getWidth(); column++) {
                int rgb = three.getRGB(column, row);
                assertTrue(rgb == PlotPalette.region(0).getRGB() || rgb == PlotPalette.region(1).getRGB()
                        || rgb == PlotPalette.region(2).getRGB(), "pixel (" + column + ", " + row + ")");
            }
        }
    }

    private static int titleWidth(String title) {
        java.awt.Graphics2D g = new BufferedImage(1, 1, BufferedImage.TYPE_INT_ARGB).createGraphics();
        try {
            return g.getFontMetrics(new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.BOLD, 14))
                    .stringWidth(title);
        } finally {
            g.dispose();
        }
    }
}
