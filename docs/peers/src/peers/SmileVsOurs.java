package peers;

import io.gdastreams.math.CovarianceType;
import io.gdastreams.math.Discriminant;
import io.gdastreams.math.KernelChoice;
import java.util.SplittableRandom;
import smile.classification.LDA;
import smile.classification.QDA;

/**
 * Smile's QDA and LDA against ours (FULL and TIED), one d per JVM: scoring per point and fitting on the training
 * rows, interleaved round by round in thread CPU time, then label agreement and max |Δp| on fresh points. The same
 * source compiles against Smile 3.1.1 (JDK 17) and Smile 6.3.0 (JDK 25): QDA.fit(double[][], int[]) and
 * predict(double[], double[]) have the same signatures in both. Usage: SmileVsOurs d (-Dpeer=name for the table).
 */
public final class SmileVsOurs {

    private static double sink;
    private static int next;

    private SmileVsOurs() {
    }

    public static void main(String[] args) throws InterruptedException {
        int d = Integer.parseInt(args[0]);
        String peer = System.getProperty("peer", "Smile");
        Harness.awaitVectorKernel();
        Harness.Labelled train = Harness.training(d);
        double[][] x = train.x();
        int[] y = train.y();
        double[][] pool = Harness.pool(d);
        int mask = Harness.POOL - 1;

        QDA qda = QDA.fit(x, y);
        LDA lda = LDA.fit(x, y);
        Discriminant full = Harness.fitOurs(train, CovarianceType.FULL, false);
        Discriminant tied = Harness.fitOurs(train, CovarianceType.TIED, false);

        // Agreement on fresh points (not timed).
        Harness.Agreement qdaAgreement = new Harness.Agreement();
        Harness.Agreement ldaAgreement = new Harness.Agreement();
        Discriminant tiedTotal = Harness.oursWithTotalScatter(train);
        Harness.Agreement ldaTotalAgreement = new Harness.Agreement();
        int[] tiedTotalOrder = Harness.labelOrder(tiedTotal);
        int[] fullOrder = Harness.labelOrder(full);
        int[] tiedOrder = Harness.labelOrder(tied);
        double[][] mu = Harness.means(d);
        SplittableRandom r = Harness.agreementRandom();
        double[] peerP = new double[Harness.K];
        double[] ourP = new double[Harness.K];
        for (int i = 0; i < Harness.AGREEMENT_POINTS; i++) {
            double[] p = Harness.draw(mu, r.nextInt(Harness.K), r);
            qda.predict(p, peerP);
            full.score(p, null, ourP);
            qdaAgreement.add(ourP, fullOrder, peerP);
            lda.predict(p, peerP);
            tied.score(p, null, ourP);
            ldaAgreement.add(ourP, tiedOrder, peerP);
            tiedTotal.score(p, null, ourP);
            ldaTotalAgreement.add(ourP, tiedTotalOrder, peerP);
        }

        int n = Harness.EVENTS_PER_ROUND;
        int fits = d <= 16 ? 8 : 1;
        double[] post = new double[Harness.K];
        double[] out = new double[Harness.K];
        Harness.Rounds rounds = new Harness.Rounds()
                .add("smile QDA predict", n, m -> {
                    for (int i = 0; i < m; i++) {
                        sink += qda.predict(pool[i & mask], post) + post[0];
                    }
                })
                .add("ours FULL score", n, m -> {
                    for (int i = 0; i < m; i++) {
                        sink += full.score(pool[i & mask], null, out) + out[0];
                    }
                })
                .add("smile LDA predict", n, m -> {
                    for (int i = 0; i < m; i++) {
                        sink += lda.predict(pool[i & mask], post) + post[0];
                    }
                })
                .add("ours TIED score", n, m -> {
                    for (int i = 0; i < m; i++) {
                        sink += tied.score(pool[i & mask], null, out) + out[0];
                    }
                })
                .add("smile QDA fit", fits, m -> {
                    for (int i = 0; i < m; i++) {
                        sink += QDA.fit(x, y).priori()[0];
                    }
                })
                .add("ours FULL fit", fits, m -> {
                    for (int i = 0; i < m; i++) {
                        sink += Harness.fitOurs(train, CovarianceType.FULL, false).dimension();
                    }
                })
                .add("smile LDA fit", fits, m -> {
                    for (int i = 0; i < m; i++) {
                        sink += LDA.fit(x, y).priori()[0];
                    }
                })
                .add("ours TIED fit", fits, m -> {
                    for (int i = 0; i < m; i++) {
                        sink += Harness.fitOurs(train, CovarianceType.TIED, false).dimension();
                    }
                });
        double[] t = rounds.measure();
        String rows = String.format("%,d rows", x.length);
        Harness.row("QDA score", d, peer, t[0], "FULL score", t[1], qdaAgreement.rate(), qdaAgreement.maxDiff());
        Harness.row("LDA score", d, peer, t[2], "TIED score", t[3], ldaAgreement.rate()
                + " (given Smile's covariance: " + ldaTotalAgreement.rate() + ")", ldaAgreement.maxDiff()
                + " (" + ldaTotalAgreement.maxDiff() + ")");
        Harness.row("QDA fit (" + rows + ")", d, peer, t[4], "updates + FULL fit + compile", t[5], "", "");
        Harness.row("LDA fit (" + rows + ")", d, peer, t[6], "updates + TIED fit + compile", t[7], "", "");
        System.err.printf("[%s, JDK %s, %s] d=%d: %d warm-up rounds, %d measured (sink %s)%n", peer, Harness.jdk(),
                KernelChoice.describe(), d, rounds.warmUpRounds(), Harness.ROUNDS, sink != 0);
    }
}
