package io.gdastreams.topology;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.fixtures.LabelledRow;
import io.gdastreams.serde.SerdeFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A labelled stream for driving a {@link PrequentialEvaluator} through every branch: Iris rows drawn at random
 * (seed 15), no model for the first events, then version 1 and version 2 (each fitted on half of Iris), events of a
 * class no model has, late events, and from {@link #SWAP_AT} on setosa and virginica swapped (the drift test fires).
 */
final class IrisPrequentialStream {

    static final int EVENTS = 600;
    /** Events before the first model is published (counted as "no model"). */
    static final int FIRST_MODEL_AT = 30;
    /** From here on version 2 (trained on the other half of Iris) scores. */
    static final int SECOND_MODEL_AT = 305;
    /** From here on setosa and virginica are swapped: the model is then mostly wrong and the drift test fires. */
    static final int SWAP_AT = 420;

    /**
     * Event {@code index}: its row, its (possibly swapped or unknown) label, its timestamp and the model record in
     * force (null: none published yet).
     */
    record Event(int index, LabelledRow row, String label, long timestamp, byte[] model) {
    }

    private IrisPrequentialStream() {
    }

    static List<Event> events() {
        List<LabelledRow> rows = Iris.rows();
        Random random = new Random(15);
        byte[] first = published(1, Iris.every(2, 0));
        byte[] second = published(2, Iris.every(2, 1));
        List<Event> events = new ArrayList<>(EVENTS);
        for (int i = 0; i < EVENTS; i++) {
            LabelledRow row = rows.get(random.nextInt(rows.size()));
            String label = row.label();
            if (i >= SWAP_AT) {
                label = label.equals("setosa") ? "virginica" : label.equals("virginica") ? "setosa" : label;
            }
            if (i % 53 == 0) {
                label = "unknown"; // a class the model does not have
            }
            long timestamp = 100L * i + random.nextInt(50);
            if (i % 37 == 0) {
                timestamp -= 1500; // older than the open window: late
            }
            events.add(new Event(i, row, label, timestamp,
                    i < FIRST_MODEL_AT ? null : i < SECOND_MODEL_AT ? first : second));
        }
        return events;
    }

    private static byte[] published(long version, List<LabelledRow> rows) {
        return SerdeFactory.model().serializer().serialize(null, Iris.model("m", version, rows));
    }
}
