package io.gdastreams.ops;

import io.gdastreams.model.ModelParameters;
import java.lang.ref.SoftReference;
import java.lang.ref.WeakReference;
import java.util.function.Function;

/**
 * A value an HTTP route derives from the model in force (its JSON, its tied form, its fit), made once per model and
 * shared by every request until the model changes. Made per request, sixteen concurrent {@code GET /models/…} of
 * a model near the size bound (56 MB of JSON) ran a 1 GiB scorer out of memory, and each {@code /api/regions}
 * refitted the model (1.6 s of CPU at d = 256, K = 40). Requests that find nothing made wait for the one that
 * makes it. Held softly: the collector may drop it under memory pressure, and it is then made again.
 */
final class PerModel<T> {

    private final Function<ModelParameters, T> make;
    /**
     * Guarded by this: the model {@link #value} was made from (compared by identity: one object per version), held
     * weakly so that a model no longer in force is not kept alive for a route nobody asks again.
     */
    private WeakReference<ModelParameters> model = new WeakReference<>(null);
    private SoftReference<T> value;

    PerModel(Function<ModelParameters, T> make) {
        this.make = make;
    }

    /** The value of {@code current}: the one made before when {@code current} is the same model, else made now. */
    synchronized T of(ModelParameters current) {
        T kept = current == model.get() && value != null ? value.get() : null;
        if (kept == null) {
            kept = make.apply(current);
            model = new WeakReference<>(current);
            value = new SoftReference<>(kept);
        }
        return kept;
    }
}
