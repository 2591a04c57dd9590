package io.gdastreams.reliability;

import io.gdastreams.app.Main;
import java.io.IOException;

/**
 * The product's command line ({@link Main}) in a JVM of its own, started by {@link ServiceProcess}: exactly what
 * {@code java -jar gda-streams.jar ARGS} runs, plus a watch on standard input. When the test JVM goes away (even
 * killed) the pipe closes and this JVM exits through its shutdown hooks, so no service outlives a crashed test run.
 */
public final class ServiceChild {

    private ServiceChild() {
    }

    public static void main(String[] args) {
        Thread watch = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // Wait for the parent to go away.
                }
            } catch (IOException e) {
                // Treated like a closed pipe.
            }
            System.exit(3);
        }, "parent-watch");
        watch.setDaemon(true);
        watch.start();
        Main.main(args);
    }
}
