package io.gdastreams.ops;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.hawkular.agent.prometheus.text.TextPrometheusMetricDataParser;
import org.hawkular.agent.prometheus.types.Histogram;
import org.hawkular.agent.prometheus.types.Metric;
import org.hawkular.agent.prometheus.types.MetricFamily;
import org.hawkular.agent.prometheus.types.Summary;

/**
 * Reads Prometheus text (format 0.0.4) with Hawkular's parser, an implementation independent of the registry that
 * wrote it, and makes it strict: that parser skips a sample line it cannot read without saying so, so every
 * sample line of the text must come back as a sample (a counter or gauge is one line, a histogram its buckets plus
 * {@code _count} and {@code _sum}, a summary its quantiles plus both), and every {@code # TYPE} once as a family.
 */
final class PrometheusText {

    private PrometheusText() {
    }

    /** The families of {@code text}; throws IllegalArgumentException when a line was not understood. */
    static List<MetricFamily> parse(byte[] text) throws IOException {
        TextPrometheusMetricDataParser parser = new TextPrometheusMetricDataParser(new ByteArrayInputStream(text));
        List<MetricFamily> families = new ArrayList<>();
        for (MetricFamily family = parser.parse(); family != null; family = parser.parse()) {
            families.add(family);
        }
        long samples = 0;
        for (MetricFamily family : families) {
            for (Metric metric : family.getMetrics()) {
                if (metric instanceof Histogram h) {
                    samples += h.getBuckets().size() + 2;
                } else if (metric instanceof Summary s) {
                    samples += s.getQuantiles().size() + 2;
                } else {
                    samples++;
                }
            }
        }
        long lines = 0;
        Set<String> typed = new HashSet<>();
        for (String line : new String(text, StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String name = line.split(" ")[2];
                if (!typed.add(name)) {
                    throw new IllegalArgumentException("family " + name + " typed twice");
                }
            } else if (!line.isBlank() && !line.startsWith("#")) {
                lines++;
            }
        }
        if (lines != samples) {
            throw new IllegalArgumentException(lines + " sample lines, but the parser read " + samples);
        }
        if (typed.size() != families.size()) {
            throw new IllegalArgumentException(typed.size() + " typed families, but the parser read "
                    + families.size());
        }
        return families;
    }
}
