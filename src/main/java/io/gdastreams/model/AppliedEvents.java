package io.gdastreams.model;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The events a model's lineage applied, in words for {@code inspect} and {@code replay}'s report. A model's totalCount
 * is what its classes hold now: it goes down after a retraction or a drift reset and leaves out the classes the size
 * bound left out, so on its own it does not say how many records went into the model.
 */
public final class AppliedEvents {

    private AppliedEvents() {
    }

    /**
     * The events {@code model}'s lineage applied that its class counts do not hold, as " (N applied: …)" with N its
     * {@link ModelParameters#eventsAbsorbed()}, or "" when the counts hold them all.
     */
    public static String beyondTheClasses(ModelParameters model) {
        List<String> parts = new ArrayList<>();
        if (model.retracted() > 0) {
            parts.add(String.format(Locale.ROOT, "%,d retraction%s and the event%s %s removed", model.retracted(),
                    model.retracted() == 1 ? "" : "s", model.retracted() == 1 ? "" : "s",
                    model.retracted() == 1 ? "it" : "they"));
        }
        if (model.resetDropped() > 0 || model.resetGeneration() > 0) {
            parts.add(String.format(Locale.ROOT, "%,d dropped by drift resets (reset generation %d)",
                    model.resetDropped(), model.resetGeneration()));
        }
        if (model.leftOut() > 0) {
            parts.add(String.format(Locale.ROOT, "%,d of classes left out by the size bound", model.leftOut()));
        }
        return parts.isEmpty() ? "" : String.format(Locale.ROOT, " (%,d applied: %s)", model.eventsAbsorbed(),
                String.join("; ", parts));
    }
}
