package io.gdastreams.serde;

import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.deser.SettableBeanProperty;
import com.fasterxml.jackson.databind.deser.ValueInstantiator;
import com.fasterxml.jackson.databind.deser.ValueInstantiators;
import com.fasterxml.jackson.databind.deser.impl.PropertyValueBuffer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.gdastreams.model.CategoricalTable;
import io.gdastreams.model.ClassParameters;
import io.gdastreams.model.ModelParameters;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The optional fields of a model record ({@link ModelSerde}'s list), given their meaning when absent where Jackson
 * builds the record: the strict mapper refuses every missing field, and a record as the trainer writes it (no
 * weights, no category tables) lacks several, so without this each such record was read twice (a failed read, then
 * a tree with the fields filled in). A field is filled only when absent: an explicit {@code null} is still refused,
 * and what is left missing (a class's weight without the other) fails as before, with Jackson's message.
 */
final class OptionalModelFields extends ValueInstantiators.Base {

    /** The module that installs the instantiators on a mapper. */
    static SimpleModule module() {
        return new SimpleModule("optional-model-fields") {
            @Override
            public void setupModule(SetupContext context) {
                super.setupModule(context);
                context.addValueInstantiators(new OptionalModelFields());
            }
        };
    }

    @Override
    public ValueInstantiator findValueInstantiator(DeserializationConfig config, BeanDescription description,
                                                   ValueInstantiator instantiator) {
        Class<?> type = description.getBeanClass();
        if (type == ModelParameters.class) {
            return new Filling(instantiator, OptionalModelFields::model);
        }
        if (type == ClassParameters.class) {
            return new Filling(instantiator, OptionalModelFields::weightsOfClass);
        }
        if (type == CategoricalTable.class) {
            return new Filling(instantiator, OptionalModelFields::weightsOfTable);
        }
        return instantiator;
    }

    /** No category tables; no retractions, resets, reset drops or left-out events. */
    private static void model(Fields fields) {
        fields.fillIfAbsent("categorical", List.of());
        for (String count : List.of("retracted", "resetGeneration", "resetDropped", "leftOut")) {
            fields.fillIfAbsent(count, 0L);
        }
    }

    /** Both weights absent: an unweighted class, W = V = count (ClassParameters stores it as unweighted). */
    private static void weightsOfClass(Fields fields) throws JsonMappingException {
        if (fields.absent("effectiveCount") && fields.absent("effectiveSampleSize") && !fields.absent("count")) {
            Double count = ((Number) fields.value("count")).doubleValue();
            fields.fillIfAbsent("effectiveCount", count);
            fields.fillIfAbsent("effectiveSampleSize", count);
        }
    }

    /** Weights absent: an unweighted table, weights = counts (CategoricalTable then drops them again). */
    @SuppressWarnings("unchecked")
    private static void weightsOfTable(Fields fields) throws JsonMappingException {
        if (fields.absent("weights") && !fields.absent("counts")) {
            List<long[]> counts = (List<long[]>) fields.value("counts"); // not null: Jackson refuses a null one
            List<double[]> weights = new ArrayList<>(counts.size());
            for (long[] row : counts) {
                weights.add(row == null ? null : asDoubles(row));
            }
            fields.fillIfAbsent("weights", weights);
        }
    }

    private static double[] asDoubles(long[] row) {
        double[] out = new double[row.length];
        for (int i = 0; i < row.length; i++) {
            out[i] = row[i];
        }
        return out;
    }

    @FunctionalInterface
    private interface Filler {
        void fill(Fields fields) throws JsonMappingException;
    }

    /** The creator's parameters of one object being read, by name. */
    private record Fields(SettableBeanProperty[] properties, PropertyValueBuffer buffer) {

        private SettableBeanProperty property(String name) {
            for (SettableBeanProperty p : properties) {
                if (p.getName().equals(name)) {
                    return p;
                }
            }
            throw new IllegalStateException("no creator property " + name); // the record's components changed
        }

        boolean absent(String name) {
            return !buffer.hasParameter(property(name));
        }

        /** A present parameter's value. */
        Object value(String name) throws JsonMappingException {
            return buffer.getParameter(property(name));
        }

        void fillIfAbsent(String name, Object value) {
            SettableBeanProperty p = property(name);
            if (!buffer.hasParameter(p)) {
                buffer.assignParameter(p, value);
            }
        }
    }

    /** The default instantiator, with the absent optional fields filled in before it builds the object. */
    private static final class Filling extends ValueInstantiator.Delegating {

        private static final long serialVersionUID = 1L;
        private final transient Filler filler;

        Filling(ValueInstantiator delegate, Filler filler) {
            super(delegate);
            this.filler = filler;
        }

        @Override
        public ValueInstantiator createContextual(DeserializationContext context, BeanDescription description)
                throws JsonMappingException {
            ValueInstantiator contextual = delegate().createContextual(context, description);
            return contextual == delegate() ? this : new Filling(contextual, filler);
        }

        @Override
        public Object createFromObjectWith(DeserializationContext context, SettableBeanProperty[] properties,
                                           PropertyValueBuffer buffer) throws IOException {
            filler.fill(new Fields(properties, buffer));
            return super.createFromObjectWith(context, properties, buffer);
        }
    }
}
