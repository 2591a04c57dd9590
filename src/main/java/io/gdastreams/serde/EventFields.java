package io.gdastreams.serde;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@link EventReader} read of one event; reused from one event to the next by one stream task (its arrays are
 * overwritten), so nothing is allocated per event for it.
 */
public final class EventFields {
    final double[] point;
    final String[] categories;
    String label;
    double weight;
    boolean retract;
    String id;
    int observed;

    /** Per slot (continuous, then categorical): given in this event; a second time is a duplicate. */
    final boolean[] seen;
    /** Root fields passed over, and names outside the layout given as null: each at most once. */
    final List<String> skipped = new ArrayList<>();
    final List<String> absent = new ArrayList<>();
    /** The number reader of {@link EventScanner} (its scratch buffer is reused). */
    final JsonNumber number = new JsonNumber();

    EventFields(int continuous, int categorical) {
        point = new double[continuous];
        categories = new String[categorical];
        seen = new boolean[continuous + categorical];
    }

    /** The continuous values in layout order; NaN where an unlabelled event gives none (or null). */
    public double[] point() {
        return point;
    }

    /** The categorical values in layout order (labelled events: every one is given). */
    public String[] categories() {
        return categories;
    }

    public String label() {
        return label;
    }

    public double weight() {
        return weight;
    }

    public boolean retract() {
        return retract;
    }

    /** The unlabelled event's own id (a string, or an integer as decimal text), or null. */
    public String id() {
        return id;
    }

    /** How many continuous values an unlabelled event gives (not null). */
    public int observed() {
        return observed;
    }
}
