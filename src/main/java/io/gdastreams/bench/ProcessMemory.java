package io.gdastreams.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Resident memory of a process from Linux {@code /proc/PID/status}: {@code VmHWM} (the peak resident set since
 * the process started) and {@code VmRSS} (now), in KiB.
 */
record ProcessMemory(long peakRssKib, long rssKib) {

    static ProcessMemory of(long pid) {
        Path status = Path.of("/proc", Long.toString(pid), "status");
        try {
            return parse(Files.readAllLines(status, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + status + " (resident memory is measured on Linux "
                    + "only): " + e.getMessage(), e);
        }
    }

    /** The two fields of a {@code /proc/PID/status} text ({@code VmHWM:    123456 kB}). */
    static ProcessMemory parse(List<String> lines) {
        return new ProcessMemory(field(lines, "VmHWM:"), field(lines, "VmRSS:"));
    }

    private static long field(List<String> lines, String name) {
        for (String line : lines) {
            if (line.startsWith(name)) {
                String value = line.substring(name.length()).strip();
                if (!value.endsWith("kB")) {
                    throw new IllegalStateException("unexpected unit in '" + line + "'");
                }
                return Long.parseLong(value.substring(0, value.length() - 2).strip());
            }
        }
        throw new IllegalStateException("no " + name + " in the process status");
    }
}
