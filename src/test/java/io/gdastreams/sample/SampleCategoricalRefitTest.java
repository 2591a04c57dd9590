package io.gdastreams.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.lifecycle.UserError;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.FitOptions;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.LabelledEvent;
import io.gdastreams.model.ModelParameters;
import io.gdastreams.replay.CsvTable;
import io.gdastreams.serde.EventDecoder;
import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * The done-when of sampling, for a model with categorical features ({@link HandModel#categoricalModel()}: a
 * three-valued feature and a Bernoulli "false"/"true" one beside the four numeric ones): 200,000 events drawn,
 * written as CSV, read back with replay's reader and counted reproduce, per class, the frequency of each value
 * θ_kjv = (n_kjv + α) / (n_k + α·V_j) computed from the hand counts, within {@value SamplingTolerance#STANDARD_ERRORS}
 * binomial standard errors (about 70 comparisons per test), and the priors, means and covariances as
 * {@link SampleRefitTest} checks them. A value of θ = 0 (α = 0, a value the class never had) is never drawn.
 */
class SampleCategoricalRefitTest {

    private static final int DRAWS = 200_000;
    private static final long SEED = 20261126;
    private static final int D = HandModel.FEATURES.size();

    /** Per class: the continuous estimate and the count of each value of each categorical feature. */
    private record Refit(List<SamplingTolerance.Estimate> estimates, long[][][] counts) {
    }

    private static String draw(FitOptions options, double alpha, EventFormat format, long seed, int draws) {
        EventSampler sampler = EventSampler.of(HandModel.categoricalModel(), options, alpha, null);
        StringWriter out = new StringWriter();
        EventWriter writer = new EventWriter(out, format, sampler.features(), sampler.categoricalFeatures());
        RandomGenerator random = EventSampler.random(seed);
        for (int i = 0; i < draws; i++) {
            writer.write(sampler.next(random));
        }
        return out.toString();
    }

    private static Refit refit(FitOptions options, double alpha) {
        CsvTable table = CsvTable.read(new ByteArrayInputStream(draw(options, alpha, EventFormat.CSV, SEED, DRAWS)
                .getBytes(StandardCharsets.UTF_8)), "sample");
        assertEquals(List.of("f0", "f1", "f2", "f3", "colour", "flag", "label"), table.header());
        assertEquals(DRAWS, table.rows().size());
        Map<String, RunningGaussian> byLabel = new LinkedHashMap<>();
        for (String label : HandModel.LABELS) {
            byLabel.put(label, new RunningGaussian(D));
        }
        long[][][] counts = new long[HandModel.LABELS.size()][HandModel.CATEGORICAL.size()][];
        for (int k = 0; k < counts.length; k++) {
            for (int j = 0; j < HandModel.CATEGORICAL.size(); j++) {
                counts[k][j] = new long[HandModel.VALUES.get(j).size()];
            }
        }
        double[] x = new double[D];
        for (CsvTable.Row row : table.rows()) {
            for (int j = 0; j < D; j++) {
                x[j] = Double.parseDouble(row.cells().get(j));
            }
            String label = row.cells().get(D + HandModel.CATEGORICAL.size());
            byLabel.get(label).update(x);
            int k = HandModel.LABELS.indexOf(label);
            for (int j = 0; j < HandModel.CATEGORICAL.size(); j++) {
                int v = HandModel.VALUES.get(j).indexOf(row.cells().get(D + j));
                assertTrue(v >= 0, "a value of the vocabulary: " + row);
                counts[k][j][v]++;
            }
        }
        List<SamplingTolerance.Estimate> estimates = new ArrayList<>();
        byLabel.forEach((label, stats) -> {
            double[][] scatter = stats.scatter();
            for (double[] r : scatter) {
                for (int j = 0; j < D; j++) {
                    r[j] /= stats.count();
                }
            }
            estimates.add(new SamplingTolerance.Estimate(label, stats.count(), stats.mean(), scatter));
        });
        return new Refit(estimates, counts);
    }

    /** Every value of every feature of every class against θ from the hand counts. */
    static void assertCategoryFrequencies(long[][][] counts, long[] classCounts, double alpha, String context) {
        for (int k = 0; k < HandModel.LABELS.size(); k++) {
            for (int j = 0; j < HandModel.CATEGORICAL.size(); j++) {
                for (int v = 0; v < HandModel.VALUES.get(j).size(); v++) {
                    SamplingTolerance.assertFrequency(HandModel.theta(k, j, v, alpha), counts[k][j][v],
                            classCounts[k], context + ", class " + HandModel.LABELS.get(k) + ", "
                                    + HandModel.CATEGORICAL.get(j) + " = " + HandModel.VALUES.get(j).get(v));
                }
            }
        }
    }

    private static long[] classCounts(Refit refit) {
        return refit.estimates().stream().mapToLong(SamplingTolerance.Estimate::count).toArray();
    }

    private static double[] priors() {
        return new double[] {HandModel.prior(0), HandModel.prior(1), HandModel.prior(2)};
    }

    @Test
    void fullCovarianceWithAlphaOneShouldReproduceEveryParameter() {
        Refit refit = refit(FitOptions.defaults(), 1.0);
        SamplingTolerance.assertReproduces(priors(), HandModel.MEANS, HandModel.COVARIANCES, refit.estimates(),
                "full, alpha 1");
        assertCategoryFrequencies(refit.counts(), classCounts(refit), 1.0, "full, alpha 1");
        // Smoothing shows: class a's "red" (never seen) is drawn with θ = 1/23, about 1,700 times here.
        assertTrue(refit.counts()[0][0][2] > 1000, "a's red under alpha 1: " + refit.counts()[0][0][2]);
    }

    @Test
    void diagonalCovarianceWithAlphaZeroShouldNeverDrawAValueTheClassNeverHad() {
        Refit refit = refit(FitOptions.defaults().withCovarianceType(CovarianceType.DIAG), 0.0);
        SamplingTolerance.assertReproduces(priors(), HandModel.MEANS, new double[][][] {HandModel.diagonal(0),
                HandModel.diagonal(1), HandModel.diagonal(2)}, refit.estimates(), "diag, alpha 0");
        assertCategoryFrequencies(refit.counts(), classCounts(refit), 0.0, "diag, alpha 0");
        assertEquals(0, refit.counts()[0][0][2], "class a never had red");
    }

    @Test
    void tiedCovarianceWithAlphaThreeShouldSmoothTowardsUniform() {
        Refit refit = refit(FitOptions.defaults().withCovarianceType(CovarianceType.TIED), 3.0);
        double[][] pooled = HandModel.pooled();
        SamplingTolerance.assertReproduces(priors(), HandModel.MEANS, new double[][][] {pooled, pooled, pooled},
                refit.estimates(), "tied, alpha 3");
        assertCategoryFrequencies(refit.counts(), classCounts(refit), 3.0, "tied, alpha 3");
    }

    /** Same seed, same bytes (CSV and JSON lines); the JSON lines decode, as train does, to the CSV's events. */
    @Test
    void sameSeedShouldGiveIdenticalBytesAndJsonLinesShouldCarryTheCsvEvents() {
        int draws = 2_000;
        for (EventFormat format : EventFormat.values()) {
            String first = draw(FitOptions.defaults(), 1.0, format, 42, draws);
            assertEquals(first, draw(FitOptions.defaults(), 1.0, format, 42, draws), format + ": same seed");
            assertFalse(first.equals(draw(FitOptions.defaults(), 1.0, format, 43, draws)), format + ": other seed");
        }
        CsvTable csv = CsvTable.read(new ByteArrayInputStream(draw(FitOptions.defaults(), 1.0, EventFormat.CSV, 7,
                draws).getBytes(StandardCharsets.UTF_8)), "csv");
        List<String> lines = draw(FitOptions.defaults(), 1.0, EventFormat.JSONL, 7, draws).lines().toList();
        assertEquals(draws, lines.size());
        for (int i = 0; i < draws; i++) {
            LabelledEvent event = EventDecoder.decodeLabelled(lines.get(i).getBytes(StandardCharsets.UTF_8),
                    EventDecoder.DEFAULT_MAX_FEATURES, Set.copyOf(HandModel.CATEGORICAL)).value();
            List<String> cells = csv.rows().get(i).cells();
            for (int j = 0; j < D; j++) {
                assertEquals(Double.parseDouble(cells.get(j)), event.features().get(HandModel.FEATURES.get(j)));
            }
            assertEquals(Map.of("colour", cells.get(D), "flag", cells.get(D + 1)), event.categories(), lines.get(i));
            assertEquals(cells.get(D + 2), event.label());
        }
        assertTrue(lines.get(0).matches(".*\"flag\":\"(true|false)\".*"), "a JSON string: " + lines.get(0));
    }

    /** An empty value cannot be a CSV cell (it reads back as missing): a user error; JSON lines carry it. */
    @Test
    void csvShouldRefuseAnEmptyCategoricalValue() {
        ModelParameters model = HandModel.model().withCategorical(List.of(new CategoricalTable("note",
                List.of("", "x"), List.of(new long[] {10, 10}, new long[] {15, 15}, new long[] {25, 25}))));
        EventSampler sampler = EventSampler.of(model, FitOptions.defaults(), 1.0, null);
        UserError e = assertThrows(UserError.class,
                () -> EventWriter.check(EventFormat.CSV, sampler, EventWriter.LABEL_COLUMN));
        assertTrue(e.getMessage().contains("'note' has the empty value"), e.getMessage());
        EventWriter.check(EventFormat.JSONL, sampler, EventWriter.LABEL_COLUMN);
    }
}
