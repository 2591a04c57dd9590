package io.gdastreams.replay;

import io.gdastreams.lifecycle.FileProblem;
import io.gdastreams.lifecycle.UserError;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A CSV file (RFC 4180: comma-separated, double quotes, "" inside quotes, CRLF or LF) with a header row. Blank
 * lines are skipped; every row remembers the line it starts on, for messages. A row with a different number of
 * cells than the header is a structural error of the file, reported with its line number.
 */
public record CsvTable(String source, List<String> header, List<Row> rows) {

    /** One data row; {@code line} is the 1-based line of the file where it starts. */
    public record Row(int line, List<String> cells) {
    }

    public CsvTable {
        header = List.copyOf(header);
        rows = List.copyOf(rows);
    }

    public int column(String name) {
        return header.indexOf(name);
    }

    public static CsvTable read(Path file) {
        String unreadable = FileProblem.unreadable(file);
        if (unreadable != null) {
            throw new UserError("cannot read " + file + " (" + unreadable + ")");
        }
        try (InputStream in = Files.newInputStream(file)) {
            return read(in, file.toString());
        } catch (IOException e) {
            throw new UserError("cannot read " + file + ": " + e.getMessage());
        }
    }

    public static CsvTable read(InputStream in, String source) {
        Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT));
        try (BufferedReader buffered = new BufferedReader(reader)) {
            return parse(buffered, source);
        } catch (CharacterCodingException e) {
            throw new UserError(source + " is not UTF-8 text");
        } catch (IOException e) {
            throw new UserError("cannot read " + source + ": " + e.getMessage());
        }
    }

    private static CsvTable parse(BufferedReader in, String source) throws IOException {
        List<String> header = null;
        List<Row> rows = new ArrayList<>();
        int line = 0;
        String text;
        while ((text = in.readLine()) != null) {
            line++;
            if (line == 1 && text.startsWith("\uFEFF")) {
                text = text.substring(1);
            }
            if (text.isBlank()) {
                continue;
            }
            int startLine = line;
            List<String> cells = new ArrayList<>();
            StringBuilder cell = new StringBuilder();
            boolean quoted = false;
            boolean wasQuoted = false;
            int i = 0;
            while (true) {
                if (i == text.length()) {
                    if (!quoted) {
                        break;
                    }
                    String next = in.readLine();
                    if (next == null) {
                        throw new UserError(source + " line " + startLine + ": unterminated quoted cell");
                    }
                    line++;
                    cell.append('\n');
                    text = next;
                    i = 0;
                    continue;
                }
                char c = text.charAt(i++);
                if (quoted) {
                    if (c == '"') {
                        if (i < text.length() && text.charAt(i) == '"') {
                            cell.append('"');
                            i++;
                        } else {
                            quoted = false;
                        }
                    } else {
                        cell.append(c);
                    }
                } else if (c == ',') {
                    cells.add(wasQuoted ? cell.toString() : cell.toString().trim());
                    cell.setLength(0);
                    wasQuoted = false;
                } else if (c == '"' && cell.toString().isBlank() && !wasQuoted) {
                    cell.setLength(0);
                    quoted = true;
                    wasQuoted = true;
                } else if (wasQuoted) {
                    // After a closing quote only blanks may come before the comma: "a"b is no RFC 4180 cell.
                    if (!Character.isWhitespace(c)) {
                        throw new UserError(source + " line " + line + ": '" + c + "' after the closing quote of cell "
                                + (cells.size() + 1) + " (a quote inside a quoted cell is written \"\")");
                    }
                } else {
                    cell.append(c);
                }
            }
            cells.add(wasQuoted ? cell.toString() : cell.toString().trim());
            if (header == null) {
                header = checkHeader(cells, source, startLine);
            } else if (cells.size() != header.size()) {
                throw new UserError(source + " line " + startLine + ": " + cells.size() + " cells, but the header has "
                        + header.size());
            } else {
                rows.add(new Row(startLine, cells));
            }
        }
        if (header == null) {
            throw new UserError(source + " is empty (a header row is required)");
        }
        return new CsvTable(source, header, rows);
    }

    private static List<String> checkHeader(List<String> names, String source, int line) {
        Set<String> seen = new HashSet<>();
        for (String name : names) {
            if (name.isEmpty()) {
                throw new UserError(source + " line " + line + ": empty column name in the header");
            }
            if (!seen.add(name)) {
                throw new UserError(source + " line " + line + ": column '" + name + "' appears twice in the header");
            }
        }
        return names;
    }
}
