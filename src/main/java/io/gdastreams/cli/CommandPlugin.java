package io.gdastreams.cli;

import java.util.concurrent.Callable;

/**
 * A command of a package that builds on this one (the bench), which the command line finds on the class path
 * through {@code META-INF/services/io.gdastreams.cli.CommandPlugin} instead of naming it: imports flow one way,
 * into {@code cli}, never out of it to the bench (docs/ARCHITECTURE.md). An implementation is a picocli
 * {@code @Command} with a public no-argument constructor; it returns its exit code.
 */
public interface CommandPlugin extends Callable<Integer> {
}
