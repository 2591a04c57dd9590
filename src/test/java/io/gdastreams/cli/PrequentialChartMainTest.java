package io.gdastreams.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.model.MetricsRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drift chart's entry point reads the window records of each file (drift alarms and blank lines skipped, a
 * line that is not JSON fails, naming it) and writes the PNG of docs/DRIFT.md.
 */
class PrequentialChartMainTest {

    private static final List<String> LINES = List.of(
            "{\"type\":\"window\",\"partition\":0,\"windowStart\":0,\"count\":10,\"accuracy\":0.5}",
            "{\"type\":\"window\",\"partition\":1,\"windowStart\":0,\"count\":30,\"accuracy\":0.9}",
            "",
            "{\"type\":\"window\",\"partition\":1,\"windowStart\":600,\"count\":0,\"accuracy\":null}",
            "{\"type\":\"drift\",\"partition\":1,\"eventTime\":5}");

    @Test
    void readsTheWindowsOfAFileAndDrawsThem(@TempDir Path dir) throws IOException {
        Path records = Files.write(dir.resolve("run.jsonl"), LINES, StandardCharsets.UTF_8);
        List<MetricsRecord.Window> windows = PrequentialChartMain.windows(records);
        assertEquals(List.of(0L, 0L, 600L), windows.stream().map(MetricsRecord.Window::windowStart).toList());
        Path png = dir.resolve("out.png");
        PrequentialChartMain.main(new String[] {png.toString(), "a run=" + records});
        assertTrue(Files.size(png) > 0, "the picture is written");
    }

    @Test
    void aLineThatIsNotJsonFailsNamingIt(@TempDir Path dir) throws IOException {
        Path records = Files.write(dir.resolve("bad.jsonl"), List.of(LINES.get(0), "{\"type\":"),
                StandardCharsets.UTF_8);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PrequentialChartMain.windows(records));
        assertTrue(e.getMessage().startsWith(records + ":2: "), e.getMessage());
    }
}
