package io.gdastreams.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ReadWhileSendingTest {

    /** Long enough never to be reached when the reader runs alongside; the test fails if it is. */
    private static final long WAIT_SECONDS = 30;

    @Test
    void shouldReadWhileTheSenderIsStillSending() {
        BlockingQueue<Long> sent = new LinkedBlockingQueue<>();
        CountDownLatch firstRead = new CountDownLatch(1);
        ReadWhileSending.Sent<List<Long>> result = ReadWhileSending.run(() -> {
            sent.add(1L);
            // The sender goes on only once the reader has read the first item: a reader run after the sending
            // would never count this down.
            boolean read = await(firstRead);
            sent.add(2L);
            return new long[] {read ? 1 : 0};
        }, () -> {
            List<Long> read = new ArrayList<>();
            read.add(sent.take());
            firstRead.countDown();
            read.add(sent.take());
            return read;
        });
        assertArrayEquals(new long[] {1}, result.appended(), "the reader read the first item before the sending ended");
        assertEquals(List.of(1L, 2L), result.read());
    }

    @Test
    void shouldInterruptTheReaderAndPassOnTheSendersFailure() {
        AtomicReference<Thread> reader = new AtomicReference<>();
        CountDownLatch readerWaiting = new CountDownLatch(1);
        IllegalStateException failure = new IllegalStateException("cannot send");
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> ReadWhileSending.run(() -> {
            await(readerWaiting);
            throw failure;
        }, () -> {
            reader.set(Thread.currentThread());
            readerWaiting.countDown();
            return new LinkedBlockingQueue<Long>().take(); // nothing ever comes: only an interrupt ends it
        }));
        assertSame(failure, thrown);
        assertFalse(reader.get().isAlive(), "the reader was interrupted and joined");
    }

    @Test
    void shouldPassOnTheReadersFailureOnceTheSendingIsOver() {
        CountDownLatch readerFailed = new CountDownLatch(1);
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> ReadWhileSending.run(() -> {
            assertTrue(await(readerFailed));
            return new long[0];
        }, () -> {
            readerFailed.countDown();
            throw new IllegalStateException("timed out waiting for latency outputs");
        }));
        assertEquals("timed out waiting for latency outputs", thrown.getMessage());
    }

    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
