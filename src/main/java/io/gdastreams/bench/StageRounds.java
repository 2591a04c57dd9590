package io.gdastreams.bench;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The three stages of {@code bench}, once or in {@code --rounds} rounds on the same broker. One round is the
 * bench's classic report: a line per stage, then the ratios. With more rounds every round runs the three again on
 * topics of its own, the passthrough first in odd rounds and last in even ones (training always before the scoring
 * that needs its model), so that a machine whose load drifts during the run weighs on the baseline and on the
 * topologies alike; each line then starts with its round, and a last line gives every round's ratios and their
 * medians: on a shared machine one round's ratio moves with the neighbours' load (docs/BENCHMARKS.md), the median
 * of several measured in one run much less.
 */
final class StageRounds {

    private final int rounds;

    StageRounds(int rounds) {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be >= 1, got " + rounds);
        }
        this.rounds = rounds;
    }

    void run(String bootstrap, BenchSettings settings, AppPlacement placement, String runId, Path stateDirectory,
             Duration stageTimeout, PrintWriter out, PrintWriter progress) {
        List<Double> trainingRatios = new ArrayList<>();
        List<Double> scoringRatios = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            Integer number = rounds == 1 ? null : round;
            String prefix = number == null ? "" : "round " + round + " of " + rounds + ": ";
            try (StageRunner runner = new StageRunner(bootstrap, settings, placement,
                    number == null ? runId : runId + "-r" + round, stateDirectory, stageTimeout, progress)) {
                boolean passthroughFirst = round % 2 == 1;
                StageResult passthrough = null;
                if (passthroughFirst) {
                    passthrough = passthrough(runner, number, prefix, settings, placement, out, progress);
                }
                progress.println(prefix + "training...");
                progress.flush();
                StageRunner.TrainingRun training = runner.training();
                print(out, BenchReport.stageLine(number, training.result(), settings, placement.shape()));
                progress.println(prefix + "scoring...");
                progress.flush();
                StageResult scoring = runner.scoring(training.model());
                print(out, BenchReport.stageLine(number, scoring, settings, placement.shape()));
                if (!passthroughFirst) {
                    passthrough = passthrough(runner, number, prefix, settings, placement, out, progress);
                }
                double trainingRatio = BenchReport.vsPassthrough(training.result(), passthrough);
                double scoringRatio = BenchReport.vsPassthrough(scoring, passthrough);
                print(out, BenchReport.ratiosLine(number, trainingRatio, scoringRatio));
                trainingRatios.add(trainingRatio);
                scoringRatios.add(scoringRatio);
            }
        }
        if (rounds > 1) {
            print(out, BenchReport.roundsLine(trainingRatios, scoringRatios));
        }
    }

    private static StageResult passthrough(StageRunner runner, Integer round, String prefix, BenchSettings settings,
                                           AppPlacement placement, PrintWriter out, PrintWriter progress) {
        progress.println(prefix + "passthrough...");
        progress.flush();
        StageResult result = runner.passthrough();
        print(out, BenchReport.stageLine(round, result, settings, placement.shape()));
        return result;
    }

    private static void print(PrintWriter out, String line) {
        out.println(line);
        out.flush();
    }
}
