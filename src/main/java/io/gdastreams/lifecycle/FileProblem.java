package io.gdastreams.lifecycle;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * What is or went wrong with a file, in words, for "cannot write FILE: …" and "cannot read FILE (…)" messages. The NIO
 * exceptions carry only the path as their message (a NoSuchFileException's is the file name itself), which said nothing
 * next to it.
 */
public final class FileProblem {

    private FileProblem() {
    }

    /** Why {@code file} cannot be read as a file ("no such file", "a directory", …), or null when it can. */
    public static String unreadable(Path file) {
        if (Files.isRegularFile(file) && Files.isReadable(file)) {
            return null;
        }
        return !Files.exists(file) ? "no such file" : Files.isDirectory(file) ? "a directory"
                : !Files.isRegularFile(file) ? "not a regular file" : "permission denied";
    }

    /** Why {@code file} cannot be written (created or replaced), or null when it can. */
    public static String unwritable(Path file) {
        Path parent = file.toAbsolutePath().getParent();
        return parent == null || !Files.isDirectory(parent) ? "no directory " + parent
                : Files.isDirectory(file) ? "a directory"
                : Files.exists(file) && !Files.isRegularFile(file) ? "not a regular file"
                : !Files.isWritable(Files.exists(file) ? file : parent) ? "permission denied" : null;
    }

    /** In words: an IOException, or the one an UncheckedIOException wraps. */
    public static String reason(Exception e) {
        if (e instanceof java.io.UncheckedIOException unchecked) {
            return reason(unchecked.getCause());
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "it already exists";
        }
        if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (e instanceof DirectoryNotEmptyException) {
            return "directory not empty";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
