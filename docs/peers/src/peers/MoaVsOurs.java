package peers;

import com.yahoo.labs.samoa.instances.Attribute;
import com.yahoo.labs.samoa.instances.DenseInstance;
import com.yahoo.labs.samoa.instances.Instance;
import com.yahoo.labs.samoa.instances.Instances;
import com.yahoo.labs.samoa.instances.InstancesHeader;
import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.Discriminant;
import io.gdastreams.math.KernelChoice;
import io.gdastreams.math.RunningGaussian;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import moa.classifiers.bayes.NaiveBayes;

/**
 * MOA's streaming Gaussian naive Bayes against ours, one d per JVM: the per-event update (trainOnInstance vs
 * RunningGaussian.update, diagonal and full statistics) and the per-point prediction (getVotesForInstance vs
 * Discriminant.score of a DIAG model), interleaved round by round in thread CPU time; then label agreement and
 * max |Δp| (MOA's votes normalised) on fresh points. Instances are built as MOA's generators build them
 * (RandomRBFGenerator: numeric attributes, a nominal class last). Usage: MoaVsOurs d.
 */
public final class MoaVsOurs {

    private static double sink;
    private static int nextTrain;
    private static int nextTrainOurs;
    private static int nextTrainFull;

    private MoaVsOurs() {
    }

    static InstancesHeader header(int d) {
        List<Attribute> attributes = new ArrayList<>();
        for (int j = 0; j < d; j++) {
            attributes.add(new Attribute("att" + (j + 1)));
        }
        List<String> labels = new ArrayList<>();
        for (int k = 0; k < Harness.K; k++) {
            labels.add(Integer.toString(k));
        }
        attributes.add(new Attribute("class", labels));
        InstancesHeader header = new InstancesHeader(new Instances("peers", attributes, 0));
        header.setClassIndex(d);
        return header;
    }

    static Instance instance(InstancesHeader header, double[] x, int label) {
        double[] values = new double[x.length + 1];
        System.arraycopy(x, 0, values, 0, x.length);
        values[x.length] = label;
        Instance inst = new DenseInstance(1.0, values);
        inst.setDataset(header);
        inst.setClassValue(label);
        return inst;
    }

    static NaiveBayes naiveBayes(InstancesHeader header) {
        NaiveBayes nb = new NaiveBayes();
        nb.setModelContext(header);
        nb.prepareForUse();
        return nb;
    }

    public static void main(String[] args) throws InterruptedException {
        int d = Integer.parseInt(args[0]);
        String peer = System.getProperty("peer", "MOA");
        Harness.awaitVectorKernel();
        InstancesHeader header = header(d);
        Harness.Labelled train = Harness.training(d);
        double[][] x = train.x();
        int[] y = train.y();
        int rows = x.length;
        Instance[] trainInstances = new Instance[rows];
        for (int i = 0; i < rows; i++) {
            trainInstances[i] = instance(header, x[i], y[i]);
        }
        double[][] pool = Harness.pool(d);
        Instance[] poolInstances = new Instance[pool.length];
        for (int i = 0; i < pool.length; i++) {
            poolInstances[i] = instance(header, pool[i], 0);
        }
        int mask = Harness.POOL - 1;

        NaiveBayes model = naiveBayes(header);
        for (Instance inst : trainInstances) {
            model.trainOnInstance(inst);
        }
        Discriminant diag = Harness.fitOurs(train, CovarianceType.DIAG, true);

        Harness.Agreement agreement = new Harness.Agreement();
        int[] order = Harness.labelOrder(diag);
        double[][] mu = Harness.means(d);
        SplittableRandom r = Harness.agreementRandom();
        double[] ourP = new double[Harness.K];
        long allZero = 0;
        for (int i = 0; i < Harness.AGREEMENT_POINTS; i++) {
            double[] p = Harness.draw(mu, r.nextInt(Harness.K), r);
            double[] votes = model.getVotesForInstance(instance(header, p, 0));
            double[] peerP = new double[Harness.K];
            double sum = 0;
            for (int k = 0; k < Math.min(Harness.K, votes.length); k++) {
                sum += votes[k];
            }
            if (!(sum > 0)) {
                allZero++;
                continue;
            }
            for (int k = 0; k < Math.min(Harness.K, votes.length); k++) {
                peerP[k] = votes[k] / sum;
            }
            diag.score(p, null, ourP);
            agreement.add(ourP, order, peerP);
        }

        // Update loops: each its own learner/statistics, growing over the rounds alike.
        NaiveBayes learner = naiveBayes(header);
        RunningGaussian[] diagonal = new RunningGaussian[Harness.K];
        RunningGaussian[] fullStats = new RunningGaussian[Harness.K];
        for (int k = 0; k < Harness.K; k++) {
            diagonal[k] = RunningGaussian.diagonal(d);
            fullStats[k] = new RunningGaussian(d);
        }
        int n = Harness.EVENTS_PER_ROUND;
        double[] out = new double[Harness.K];
        Harness.Rounds rounds = new Harness.Rounds()
                .add("moa trainOnInstance", n, m -> {
                    int i = nextTrain;
                    for (int c = 0; c < m; c++) {
                        learner.trainOnInstance(trainInstances[i]);
                        i = i + 1 == rows ? 0 : i + 1;
                    }
                    nextTrain = i;
                    sink += learner.trainingWeightSeenByModel();
                })
                .add("ours diagonal update", n, m -> {
                    int i = nextTrainOurs;
                    for (int c = 0; c < m; c++) {
                        diagonal[y[i]].update(x[i]);
                        i = i + 1 == rows ? 0 : i + 1;
                    }
                    nextTrainOurs = i;
                    sink += diagonal[0].count();
                })
                .add("ours full update", n, m -> {
                    int i = nextTrainFull;
                    for (int c = 0; c < m; c++) {
                        fullStats[y[i]].update(x[i]);
                        i = i + 1 == rows ? 0 : i + 1;
                    }
                    nextTrainFull = i;
                    sink += fullStats[0].count();
                })
                .add("moa getVotesForInstance", n, m -> {
                    for (int i = 0; i < m; i++) {
                        sink += model.getVotesForInstance(poolInstances[i & mask])[0];
                    }
                })
                .add("ours DIAG score", n, m -> {
                    for (int i = 0; i < m; i++) {
                        sink += diag.score(pool[i & mask], null, out) + out[0];
                    }
                });
        double[] t = rounds.measure();
        String agree = agreement.rate() + (allZero > 0 ? " (+" + allZero + " with all MOA votes 0)" : "");
        Harness.row("NB update", d, peer, t[0], "diagonal update", t[1], "", "");
        Harness.row("NB update", d, peer, t[0], "full update", t[2], "", "");
        Harness.row("NB predict", d, peer, t[3], "DIAG score", t[4], agree, agreement.maxDiff());
        System.err.printf("[%s, JDK %s, %s] d=%d: %d warm-up rounds, %d measured (sink %s)%n", peer, Harness.jdk(),
                KernelChoice.describe(), d, rounds.warmUpRounds(), Harness.ROUNDS, sink != 0);
    }
}
