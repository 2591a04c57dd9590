package io.gdastreams.ops;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hawkular.agent.prometheus.types.Counter;
import org.hawkular.agent.prometheus.types.Gauge;
import org.hawkular.agent.prometheus.types.Metric;
import org.hawkular.agent.prometheus.types.MetricFamily;

/** The endpoint of one product process, as a client sees it: the JDK's HTTP client, and {@link PrometheusText} for {@code /metrics}. */
public final class OpsHttp {

    private static final Pattern ENDPOINT = Pattern.compile(": HTTP endpoint on http://([^:]+):(\\d+) ");
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final String host;
    private final int port;

    private OpsHttp(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /** The endpoint a process printed in {@code log}, or null when it has not printed it yet. */
    public static OpsHttp fromLog(String log) {
        Matcher m = ENDPOINT.matcher(log);
        return m.find() ? new OpsHttp(m.group(1), Integer.parseInt(m.group(2))) : null;
    }

    String host() {
        return host;
    }

    public HttpResponse<byte[]> get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).timeout(TIMEOUT).GET().build());
    }

    HttpResponse<byte[]> post(String path, byte[] body) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).timeout(TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build());
    }

    private HttpResponse<byte[]> send(HttpRequest request) throws IOException, InterruptedException {
        return client.send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    private URI uri(String path) {
        return URI.create("http://" + host + ":" + port + path);
    }

    /** Every metric family of a {@code GET /metrics}, read by an independent Prometheus text-format parser. */
    List<MetricFamily> metrics() throws IOException, InterruptedException {
        HttpResponse<byte[]> response = get("/metrics");
        if (response.statusCode() != 200) {
            throw new AssertionError("/metrics answered " + response.statusCode());
        }
        return PrometheusText.parse(response.body());
    }

    /** The value of the unlabelled gauge {@code name} in a {@code GET /metrics}. */
    public double gauge(String name) throws IOException, InterruptedException {
        return metrics().stream().filter(f -> f.getName().equals(name)).flatMap(f -> f.getMetrics().stream())
                .map(m -> ((Gauge) m).getValue()).findFirst()
                .orElseThrow(() -> new AssertionError("no gauge " + name + " in /metrics"));
    }

    /** The sample of {@code name} with exactly {@code labels} in a {@code GET /metrics}. */
    public double value(String name, Map<String, String> labels) throws IOException, InterruptedException {
        return value(metrics(), name, labels);
    }

    /** The sample of family {@code name} with exactly {@code labels} (a counter, gauge or untyped value). */
    public static double value(List<MetricFamily> families, String name, Map<String, String> labels) {
        Metric metric = metric(families, name, labels);
        if (metric instanceof Counter counter) {
            return counter.getValue();
        }
        if (metric instanceof Gauge gauge) {
            return gauge.getValue();
        }
        throw new AssertionError(name + " is a " + metric.getClass().getSimpleName());
    }

    public static Metric metric(List<MetricFamily> families, String name, Map<String, String> labels) {
        for (MetricFamily family : families) {
            if (family.getName().equals(name)) {
                for (Metric metric : family.getMetrics()) {
                    if (metric.getLabels().equals(labels)) {
                        return metric;
                    }
                }
            }
        }
        throw new AssertionError("no " + name + labels + " among " + families.stream().map(MetricFamily::getName)
                .filter(n -> n.startsWith("gda")).toList());
    }

    public static String text(HttpResponse<byte[]> response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }
}
