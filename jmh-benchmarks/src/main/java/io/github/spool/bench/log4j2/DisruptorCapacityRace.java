package io.github.spool.bench.log4j2;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Shows how often LMAX Disruptor 3.4.4's {@code RingBuffer.remainingCapacity()} comes out negative
 * while its ring is full and moving. log4j-core 2.26.1's {@code AsyncLoggerDisruptor.getEventRoute()}
 * asks exactly this when {@code tryPublish} failed, and takes a negative answer for "log4j2 was
 * shut down": the event is discarded without a status message. 3.4.4's
 * {@code MultiProducerSequencer.remainingCapacity()} loads the consumers' minimum sequence before
 * the producers' cursor, so if the consumer advances and producers claim the freed slots between
 * the two loads, {@code produced - consumed} exceeds the ring's size.
 *
 * <p>Producers try to publish; on a full ring they ask {@code remainingCapacity()} (as log4j2 does)
 * and then publish blocking, so nothing here is lost; the program only counts negative answers.
 *
 * <pre>java -cp jmh-benchmarks/target/benchmarks.jar io.github.spool.bench.log4j2.DisruptorCapacityRace [threads] [seconds]</pre>
 */
public final class DisruptorCapacityRace {

    private DisruptorCapacityRace() {
    }

    private static final class Slot {
        long value;
    }

    /**
     * @param args producer threads (default 8), seconds (default 60)
     * @throws InterruptedException if interrupted while joining
     */
    public static void main(String[] args) throws InterruptedException {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        long seconds = args.length > 1 ? Long.parseLong(args[1]) : 60;
        ThreadFactory daemons = r -> {
            Thread t = new Thread(r, "consumer");
            t.setDaemon(true);
            return t;
        };
        Disruptor<Slot> disruptor = new Disruptor<>(Slot::new, 128, daemons, ProducerType.MULTI,
                new BlockingWaitStrategy());
        disruptor.handleEventsWith((slot, sequence, endOfBatch) -> slot.value = 0);
        disruptor.start();
        RingBuffer<Slot> ring = disruptor.getRingBuffer();
        AtomicLong full = new AtomicLong();
        AtomicLong negative = new AtomicLong();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        Thread[] producers = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            producers[i] = new Thread(() -> {
                while (System.nanoTime() - end < 0) {
                    if (!ring.tryPublishEvent((slot, sequence) -> slot.value = sequence)) {
                        full.incrementAndGet();
                        if (ring.remainingCapacity() < 0) {
                            negative.incrementAndGet(); // log4j2 would have dropped this event here
                        }
                        ring.publishEvent((slot, sequence) -> slot.value = sequence);
                    }
                }
            }, "producer-" + i);
            producers[i].start();
        }
        for (Thread p : producers) {
            p.join();
        }
        disruptor.shutdown();
        System.out.printf("Disruptor 3.4.4, %d producers, %d s: ring full %,d times; remainingCapacity() < 0 %,d times%n",
                threads, seconds, full.get(), negative.get());
    }
}
