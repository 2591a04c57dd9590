package io.gdastreams.math;

/**
 * How the class covariances are tied together; one set of statistics serves all three. This is the name a
 * configuration gives ({@code gda.covariance}); what the name means (estimator, compiled form, score) is its
 * {@link CovarianceStructure}, chosen in {@link #structure()}, the one place that switches on the type.
 */
public enum CovarianceType {
    /** QDA: one full covariance per class, Σ_k = S_k / n_k. */
    FULL("QDA"),
    /** LDA: one pooled covariance, Σ = Σ_k S_k / n. */
    TIED("LDA"),
    /** Gaussian naive Bayes: per-class diagonal, diag(S_k) / n_k. */
    DIAG("naive Bayes");

    private final String classifier;

    CovarianceType(String classifier) {
        this.classifier = classifier;
    }

    /** What the classifier of this type is called (QDA, LDA, naive Bayes), as in a picture's title. */
    public String classifier() {
        return classifier;
    }

    /** The behaviour behind this name. A new type is a new constant here and a new {@link CovarianceStructure}. */
    CovarianceStructure structure() {
        return switch (this) {
            case FULL -> new FullCovariance();
            case TIED -> new TiedCovariance();
            case DIAG -> new DiagonalCovariance();
        };
    }
}
