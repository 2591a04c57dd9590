package io.gdastreams.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gdastreams.lifecycle.UserError;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvTableTest {

    private static CsvTable parse(String text) {
        return CsvTable.read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "t.csv");
    }

    @Test
    void shouldReadHeaderRowsAndStartLinesSkippingBlankLines() {
        CsvTable table = parse("\uFEFFa,b,label\r\n1,2,x\r\n\r\n3, 4 ,y\n");
        assertEquals(List.of("a", "b", "label"), table.header());
        assertEquals(2, table.rows().size());
        assertEquals(2, table.rows().get(0).line());
        assertEquals(4, table.rows().get(1).line());
        assertEquals(List.of("3", "4", "y"), table.rows().get(1).cells());
    }

    @Test
    void shouldKeepEmptyCellsAndQuotedCommasQuotesAndNewlines() {
        CsvTable table = parse("a,b,c\n,\"x,\"\"y\"\"\",\"two\nlines\"\n5,,6\n");
        assertEquals(List.of("", "x,\"y\"", "two\nlines"), table.rows().get(0).cells());
        assertEquals(4, table.rows().get(1).line());
        assertEquals(List.of("5", "", "6"), table.rows().get(1).cells());
    }

    @Test
    void shouldRejectRowWithWrongCellCountNamingItsLine() {
        UserError e = assertThrows(UserError.class, () -> parse("a,b\n1,2\n1,2,3\n"));
        assertEquals("t.csv line 3: 3 cells, but the header has 2", e.getMessage());
    }

    @Test
    void shouldRejectEmptyFileDuplicateColumnAndUnterminatedQuote() {
        assertTrue(assertThrows(UserError.class, () -> parse("")).getMessage().contains("empty"));
        assertTrue(assertThrows(UserError.class, () -> parse("a,a\n1,2\n")).getMessage().contains("twice"));
        assertTrue(assertThrows(UserError.class, () -> parse("a,b\n\"1,2\n")).getMessage()
                .contains("line 2: unterminated"));
    }

    /** Text after a closing quote is no RFC 4180 cell: "a"b was read as ab. Blanks before the comma are let be. */
    @Test
    void shouldRejectTextAfterAClosingQuoteAndLetBlanksBe() {
        assertEquals("t.csv line 3: 'b' after the closing quote of cell 2 (a quote inside a quoted cell is written"
                + " \"\")", assertThrows(UserError.class, () -> parse("x,label\n1,a\n1,\"a\"b\n")).getMessage());
        assertEquals(List.of("1", "a"), parse("x,label\n1,\"a\"  \n").rows().get(0).cells());
        assertEquals(List.of("a", "2"), parse("x,y\n\"a\" ,2\n").rows().get(0).cells());
    }

    @Test
    void shouldRejectNonUtf8Input() {
        byte[] latin1 = "a,b\n\u00e9,1\n".getBytes(StandardCharsets.ISO_8859_1);
        UserError e = assertThrows(UserError.class, () -> CsvTable.read(new ByteArrayInputStream(latin1), "t.csv"));
        assertEquals("t.csv is not UTF-8 text", e.getMessage());
    }
}
