package io.gdastreams.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.Estimator;
import io.gdastreams.math.FitOptions;
import io.gdastreams.math.RunningGaussian;
import io.gdastreams.replay.CsvTable;
import java.io.ByteArrayInputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * The done-when of sampling: 200,000 events drawn from {@link HandModel}, written as CSV, read back and refitted
 * with {@link RunningGaussian} reproduce the priors, means and covariances of the covariance type drawn from,
 * within {@link SamplingTolerance} (5 standard errors of each estimate). The expected covariances come from the
 * hand parameters: full = Σ_k, tied = the pooled Σ for every class, diag = diag(Σ_k) (so the sample's off-diagonal
 * covariances are 0 within sampling error), unbiased = Σ_k·n_k/(n_k−1) with the model's counts.
 */
class SampleRefitTest {

    private static final int DRAWS = 200_000;
    private static final long SEED = 20261125;

    /** Events drawn, written as CSV and parsed back: the refit sees exactly the numbers a user gets. */
    private static List<SamplingTolerance.Estimate> refit(FitOptions options, String classLabel, int draws) {
        EventSampler sampler = EventSampler.of(HandModel.model(), options, classLabel);
        StringWriter csv = new StringWriter();
        EventWriter writer = new EventWriter(csv, EventFormat.CSV, sampler.features());
        RandomGenerator random = EventSampler.random(SEED);
        for (int i = 0; i < draws; i++) {
            writer.write(sampler.next(random));
        }
        CsvTable table = CsvTable.read(new ByteArrayInputStream(csv.toString().getBytes(StandardCharsets.UTF_8)),
                "sample");
        assertEquals(List.of("f0", "f1", "f2", "f3", "label"), table.header());
        assertEquals(draws, table.rows().size());
        Map<String, RunningGaussian> byLabel = new LinkedHashMap<>();
        for (String label : HandModel.LABELS) {
            byLabel.put(label, new RunningGaussian(4));
        }
        double[] x = new double[4];
        for (CsvTable.Row row : table.rows()) {
            for (int j = 0; j < 4; j++) {
                x[j] = Double.parseDouble(row.cells().get(j));
            }
            byLabel.get(row.cells().get(4)).update(x);
        }
        List<SamplingTolerance.Estimate> estimates = new ArrayList<>();
        byLabel.forEach((label, stats) -> {
            if (stats.count() > 0) {
                double[][] scatter = stats.scatter();
                for (double[] rowOfScatter : scatter) {
                    for (int j = 0; j < 4; j++) {
                        rowOfScatter[j] /= stats.count();
                    }
                }
                estimates.add(new SamplingTolerance.Estimate(label, stats.count(), stats.mean(), scatter));
            }
        });
        return estimates;
    }

    private static double[] priors() {
        return new double[] {HandModel.prior(0), HandModel.prior(1), HandModel.prior(2)};
    }

    @Test
    void fullCovarianceShouldReproduceEachClassCovariance() {
        List<SamplingTolerance.Estimate> estimates = refit(FitOptions.defaults(), null, DRAWS);
        SamplingTolerance.assertReproduces(priors(), HandModel.MEANS, HandModel.COVARIANCES, estimates, "full/mle");
    }

    @Test
    void tiedCovarianceShouldGiveEveryClassThePooledCovariance() {
        List<SamplingTolerance.Estimate> estimates =
                refit(FitOptions.defaults().withCovarianceType(CovarianceType.TIED), null, DRAWS);
        double[][] pooled = HandModel.pooled();
        SamplingTolerance.assertReproduces(priors(), HandModel.MEANS, new double[][][] {pooled, pooled, pooled},
                estimates, "tied/mle");
        // Not the per-class covariance: class a's Σ_11 is 10, the pooled one 2.725 (over 100 sd apart here).
        assertTrue(Math.abs(estimates.get(0).covariance()[1][1] - 10) > 1, "class a drawn from the pooled Σ");
    }

    @Test
    void diagonalCovarianceShouldDrawUncorrelatedFeatures() {
        List<SamplingTolerance.Estimate> estimates =
                refit(FitOptions.defaults().withCovarianceType(CovarianceType.DIAG), null, DRAWS);
        SamplingTolerance.assertReproduces(priors(), HandModel.MEANS, new double[][][] {HandModel.diagonal(0),
                HandModel.diagonal(1), HandModel.diagonal(2)}, estimates, "diag/mle");
    }

    @Test
    void unbiasedEstimatorShouldScaleEachCovarianceByItsDivisor() {
        List<SamplingTolerance.Estimate> estimates =
                refit(FitOptions.defaults().withEstimator(Estimator.UNBIASED), null, DRAWS);
        SamplingTolerance.assertReproduces(priors(), HandModel.MEANS, new double[][][] {HandModel.unbiased(0),
                HandModel.unbiased(1), HandModel.unbiased(2)}, estimates, "full/unbiased");
    }

    /** {@code --class b}: every event is of b, with b's mean and covariance (n = 50,000: tolerances widen). */
    @Test
    void fixedClassShouldDrawOnlyThatClass() {
        int draws = 50_000;
        List<SamplingTolerance.Estimate> estimates = refit(FitOptions.defaults(), "b", draws);
        assertEquals(1, estimates.size());
        assertEquals("b", estimates.get(0).label());
        assertEquals(draws, estimates.get(0).count());
        SamplingTolerance.assertClass(HandModel.MEANS[1], HandModel.COVARIANCES[1], estimates.get(0), "--class b");
    }
}
