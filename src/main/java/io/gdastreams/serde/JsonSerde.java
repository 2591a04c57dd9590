package io.gdastreams.serde;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** JSON serde for our own records (values we wrote ourselves; untrusted input goes through EventDecoder). */
public final class JsonSerde<T> implements Serde<T> {

    private final ObjectReader reader;
    private final ObjectWriter writer;

    JsonSerde(Class<T> type) {
        this(type, Json.mapper());
    }

    JsonSerde(Class<T> type, ObjectMapper mapper) {
        this.reader = mapper.readerFor(type);
        this.writer = mapper.writerFor(type);
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, value) -> {
            if (value == null) {
                return null;
            }
            try {
                return writer.writeValueAsBytes(value);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            try {
                return reader.readValue(bytes);
            } catch (IOException e) {
                throw new SerializationException("cannot read JSON from topic " + topic + ": " + e.getMessage(), e);
            }
        };
    }
}
