package io.gdastreams.bench;

import io.gdastreams.lifecycle.UserError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Where the broker and the applications under test run: {@code --broker-cpus} and {@code --app-cpus} (Linux
 * {@code taskset} CPU lists such as {@code 0}, {@code 1-3} or {@code 0,2}), both or neither. Neither: the
 * {@value #SHARED} layout (everything on every CPU). Both, with no CPU in common: the {@value #DISJOINT} layout;
 * the embedded broker's JVM is started under {@code taskset -c}, child instances likewise, and the bench's own
 * JVM (where in-process applications and the bench's clients run) is pinned with {@code taskset -a -p -c}
 * (all its threads; threads started later inherit it). Overlapping lists are refused: a partly shared layout
 * would be reported as neither.
 *
 * @param brokerCpus the broker's CPUs as given (normalised), or null
 * @param appCpus    the applications' CPUs as given (normalised), or null
 */
record CpuPinning(String brokerCpus, String appCpus) {

    static final String SHARED = "shared";
    static final String DISJOINT = "disjoint";
    static final CpuPinning NONE = new CpuPinning(null, null);
    /** Largest CPU number accepted: a bound on what a typo can ask for. */
    static final int MAX_CPU = 4095;

    /** What the platform offers; a seam so that the checks are testable anywhere. */
    interface Platform {
        boolean isLinux();

        /** Whether {@code taskset} runs (util-linux). */
        boolean hasTaskset();

        /** CPUs this process may run on, or an empty set when unknown. */
        SortedSet<Integer> allowedCpus();
    }

    /**
     * The pinning for the two options (either may be null); a user error for one without the other, a malformed
     * or overlapping list, a CPU this process may not use, no Linux or no taskset, or pinning an external broker.
     */
    static CpuPinning of(String brokerCpus, String appCpus, boolean externalBroker, Platform platform) {
        if (brokerCpus == null && appCpus == null) {
            return NONE;
        }
        if (brokerCpus == null || appCpus == null) {
            throw new UserError("--broker-cpus and --app-cpus go together (the disjoint layout); give neither for "
                    + "the shared one");
        }
        if (externalBroker) {
            throw new UserError("--broker-cpus pins the embedded broker; with --bootstrap-servers pin the broker "
                    + "yourself");
        }
        SortedSet<Integer> broker = parse("--broker-cpus", brokerCpus);
        SortedSet<Integer> app = parse("--app-cpus", appCpus);
        SortedSet<Integer> common = new TreeSet<>(broker);
        common.retainAll(app);
        if (!common.isEmpty()) {
            throw new UserError("--broker-cpus " + brokerCpus + " and --app-cpus " + appCpus + " share CPUs "
                    + common + ": the disjoint layout needs lists with no CPU in common");
        }
        if (!platform.isLinux()) {
            throw new UserError("--broker-cpus/--app-cpus use taskset, which exists on Linux only (this is "
                    + System.getProperty("os.name") + ")");
        }
        if (!platform.hasTaskset()) {
            throw new UserError("--broker-cpus/--app-cpus need taskset (util-linux) on the PATH");
        }
        SortedSet<Integer> allowed = platform.allowedCpus();
        for (SortedSet<Integer> cpus : List.of(broker, app)) {
            if (!allowed.isEmpty() && !allowed.containsAll(cpus)) {
                SortedSet<Integer> missing = new TreeSet<>(cpus);
                missing.removeAll(allowed);
                throw new UserError("CPUs " + missing + " are not available to this process (allowed: " + allowed
                        + ")");
            }
        }
        return new CpuPinning(brokerCpus.strip(), appCpus.strip());
    }

    /** A taskset CPU list: comma-separated CPU numbers and ranges {@code a-b} with a ≤ b ≤ {@value #MAX_CPU}. */
    static SortedSet<Integer> parse(String option, String list) {
        SortedSet<Integer> cpus = new TreeSet<>();
        String trimmed = list.strip();
        if (trimmed.isEmpty()) {
            throw new UserError(option + " is empty: give CPUs such as 0, 1-3 or 0,2");
        }
        for (String part : trimmed.split(",", -1)) {
            String[] range = part.strip().split("-", -1);
            if (range.length > 2) {
                throw malformed(option, list, part);
            }
            int from = cpu(option, list, range[0]);
            int to = range.length == 2 ? cpu(option, list, range[1]) : from;
            if (to < from) {
                throw malformed(option, list, part);
            }
            for (int c = from; c <= to; c++) {
                cpus.add(c);
            }
        }
        return cpus;
    }

    private static int cpu(String option, String list, String text) {
        String digits = text.strip();
        if (digits.isEmpty() || digits.length() > 4 || !digits.chars().allMatch(Character::isDigit)) {
            throw malformed(option, list, text);
        }
        int cpu = Integer.parseInt(digits);
        if (cpu > MAX_CPU) {
            throw malformed(option, list, text);
        }
        return cpu;
    }

    private static UserError malformed(String option, String list, String part) {
        return new UserError(option + " " + list + ": '" + part.strip() + "' is not a CPU number or range a-b "
                + "(e.g. 0, 1-3, 0,2)");
    }

    String layout() {
        return brokerCpus == null ? SHARED : DISJOINT;
    }

    /** The prefix of the broker JVM's command line: {@code taskset -c CPUS}, or nothing. */
    List<String> brokerCommandPrefix() {
        return prefix(brokerCpus);
    }

    /** The prefix of a child application JVM's command line. */
    List<String> appCommandPrefix() {
        return prefix(appCpus);
    }

    private static List<String> prefix(String cpus) {
        return cpus == null ? List.of() : List.of("taskset", "-c", cpus);
    }

    /**
     * Pins every thread of this JVM to the applications' CPUs ({@code taskset -a -p -c}); nothing when shared.
     * Returns what puts the CPUs this JVM had back (when the bench runs inside a longer-lived JVM, a test).
     */
    Runnable pinThisProcess(Platform platform) {
        if (appCpus == null) {
            return () -> { };
        }
        SortedSet<Integer> before = platform.allowedCpus();
        pin(appCpus);
        if (before.isEmpty()) {
            return () -> { };
        }
        String list = String.join(",", before.stream().map(String::valueOf).toList());
        return () -> pin(list);
    }

    private static void pin(String cpus) {
        run(new ArrayList<>(List.of("taskset", "-a", "-p", "-c", cpus, Long.toString(ProcessHandle.current().pid()))));
    }

    private static void run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + String.join(" ", command), e);
        }
    }

    /** The real platform: os.name, a {@code taskset --version} run, /proc/self/status Cpus_allowed_list. */
    static final Platform SYSTEM = new Platform() {
        @Override
        public boolean isLinux() {
            return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");
        }

        @Override
        public boolean hasTaskset() {
            try {
                Process process = new ProcessBuilder("taskset", "--version").redirectErrorStream(true).start();
                process.getInputStream().readAllBytes();
                return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0;
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        @Override
        public SortedSet<Integer> allowedCpus() {
            try {
                for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/status"),
                        StandardCharsets.UTF_8)) {
                    if (line.startsWith("Cpus_allowed_list:")) {
                        return parse("Cpus_allowed_list", line.substring(line.indexOf(':') + 1));
                    }
                }
            } catch (IOException | UserError e) {
                // unknown: the caller skips the check and taskset itself reports an unusable CPU
            }
            return new TreeSet<>();
        }
    };
}
