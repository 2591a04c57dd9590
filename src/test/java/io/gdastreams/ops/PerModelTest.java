package io.gdastreams.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.gdastreams.fixtures.Iris;
import io.gdastreams.model.ModelParameters;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The heavy model routes make their answer once per model: sixteen concurrent requests of one model share one
 * value made once (made per request, they ran a scorer out of memory on a model near the size bound), and a new
 * model in force makes a new one.
 */
class PerModelTest {

    @Test
    void concurrentRequestsOfOneModelShareOneValueMadeOnce() throws Exception {
        AtomicInteger made = new AtomicInteger();
        PerModel<byte[]> perModel = new PerModel<>(m -> {
            made.incrementAndGet();
            return ModelDocument.published(m);
        });
        ModelParameters v1 = Iris.model("iris", 1, Iris.rows());
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<byte[]>> answers = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return perModel.of(v1);
                }));
            }
            start.countDown();
            byte[] first = answers.get(0).get();
            for (Future<byte[]> answer : answers) {
                assertSame(first, answer.get(), "one value for every request");
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, made.get());

        ModelParameters v2 = Iris.model("iris", 2, Iris.rows());
        assertEquals(new String(ModelDocument.published(v2)), new String(perModel.of(v2)));
        assertSame(perModel.of(v2), perModel.of(v2));
        assertEquals(2, made.get(), "made again only for the new model");
    }
}
