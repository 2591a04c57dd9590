package io.gdastreams.app;

/** Entry point of the runnable jar; the command line is built in a later step. */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.out.println("gda-streams: no commands yet");
    }
}
