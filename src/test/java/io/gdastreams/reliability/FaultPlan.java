package io.gdastreams.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The schedule of a fault-injection run ({@link FaultInjectionIT}). The CI plan (the default) freezes the broker
 * twice for 15 s, longer than the transaction timeout (10 s) and the session timeout it sets (10 s, so members
 * are expired and the group rebalances), kills the broker, a trainer and a scorer with SIGKILL in between, all
 * within about two minutes. A long plan is chosen with system properties (docs/RELIABILITY.md):
 * {@code -Dfaults.outages=N -Dfaults.outage.seconds=S -Dfaults.rate=R} (N outages of S seconds, a trainer, the
 * broker and a scorer killed after the first, second and third outages, the product's own session timeout).
 */
record FaultPlan(List<Step> steps, int eventsPerSecond, int hostileEvery, Duration tail,
                 Map<String, String> streamsOverrides) {

    enum Fault { PAUSE_BROKER, KILL_BROKER, KILL_TRAINER, KILL_SCORER }

    /**
     * One fault, {@code before} after the previous one ended; {@code duration} is how long the broker stays frozen
     * or a killed process stays down.
     */
    record Step(Fault fault, Duration before, Duration duration) {
        String describe() {
            return switch (fault) {
                case PAUSE_BROKER -> "broker SIGSTOP " + duration.toSeconds() + " s";
                case KILL_BROKER -> "broker SIGKILL + restart";
                case KILL_TRAINER -> "train SIGKILL, down " + duration.toSeconds() + " s";
                case KILL_SCORER -> "score SIGKILL, down " + duration.toSeconds() + " s";
            };
        }
    }

    private static final Duration GAP = Duration.ofSeconds(8);
    private static final Duration DOWN = Duration.ofSeconds(2);

    static FaultPlan fromSystemProperties() {
        String outages = System.getProperty("faults.outages");
        return outages == null ? ci() : longRun(Integer.parseInt(outages),
                Duration.ofSeconds(Long.getLong("faults.outage.seconds", 120)), Integer.getInteger("faults.rate", 200));
    }

    static FaultPlan ci() {
        Duration outage = Duration.ofSeconds(15);
        List<Step> steps = List.of(
                new Step(Fault.PAUSE_BROKER, GAP, outage),
                new Step(Fault.KILL_TRAINER, GAP, DOWN),
                new Step(Fault.KILL_BROKER, GAP, Duration.ZERO),
                new Step(Fault.KILL_SCORER, GAP, DOWN),
                new Step(Fault.PAUSE_BROKER, GAP, outage));
        Map<String, String> overrides = new LinkedHashMap<>();
        overrides.put("session.timeout.ms", "10000");
        overrides.put("heartbeat.interval.ms", "2000");
        overrides.put("producer.transaction.timeout.ms", "10000");
        return new FaultPlan(steps, 100, 50, Duration.ofSeconds(5), overrides);
    }

    static FaultPlan longRun(int outages, Duration outage, int eventsPerSecond) {
        List<Step> steps = new ArrayList<>();
        Duration gap = Duration.ofSeconds(30);
        for (int i = 0; i < outages; i++) {
            steps.add(new Step(Fault.PAUSE_BROKER, gap, outage));
            switch (i) {
                case 0 -> steps.add(new Step(Fault.KILL_TRAINER, gap, DOWN));
                case 1 -> steps.add(new Step(Fault.KILL_BROKER, gap, Duration.ZERO));
                case 2 -> steps.add(new Step(Fault.KILL_SCORER, gap, DOWN));
                default -> { }
            }
        }
        return new FaultPlan(steps, eventsPerSecond, 50, gap, Map.of());
    }
}
