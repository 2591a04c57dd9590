package io.gdastreams.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The size rules of the main sources: a file of at most 350 lines (a class that grows past it has more than one
 * job), a line of at most 120 characters (characters, not bytes: σ and ← are one each).
 */
class SourceLayoutTest {

    private static final Path MAIN = Path.of("src/main/java");
    private static final int MAX_LINES = 350;
    private static final int MAX_LINE_CHARS = 120;

    @Test
    void everyMainFileAndLineShouldStayWithinTheBounds() throws IOException {
        List<String> over = new ArrayList<>();
        int files = 0;
        try (Stream<Path> sources = Files.walk(MAIN)) {
            for (Path file : sources.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                files++;
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                if (lines.size() > MAX_LINES) {
                    over.add(file + ": " + lines.size() + " lines");
                }
                for (int i = 0; i < lines.size(); i++) {
                    int chars = lines.get(i).codePointCount(0, lines.get(i).length());
                    if (chars > MAX_LINE_CHARS) {
                        over.add(file + ":" + (i + 1) + ": " + chars + " characters");
                    }
                }
            }
        }
        assertTrue(files > 200, files + " files: the walk did not find the sources");
        assertEquals(List.of(), over, "over " + MAX_LINES + " lines or " + MAX_LINE_CHARS + " characters a line");
    }
}
