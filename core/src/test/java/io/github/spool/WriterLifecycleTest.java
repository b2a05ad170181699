package io.github.spool;

import io.github.spool.ring.ManyToOneCellRing;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Wake-ups from untimed sleep, shrinking when idle, JMX registration. */
class WriterLifecycleTest {

    private static void awaitTrue(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what);
            Thread.onSpinWait();
        }
    }

    @Test
    void aRecordWakesASleepingWriterEveryTime() throws Exception {
        TestSink sink = new TestSink();
        Spool spool = Spool.start(SpoolConfig.builder("wake").statusListener(new RecordedStatus()).build(), sink);
        byte[] b = "wake up\n".getBytes();
        for (int i = 0; i < 20; i++) {
            long size = sink.size();
            // Wait until the writer has given up napping and sleeps untimed: only the producer's
            // signal (not a timer) can get this record out within the housekeeping second.
            Thread writer = findThread("spool-writer-wake");
            awaitTrue(() -> writer.getState() == Thread.State.TIMED_WAITING && isSleeping(spool), "writer never slept");
            long t0 = System.nanoTime();
            spool.append(b, 0, b.length, Severity.INFO);
            assertTrue(sink.awaitSize(size + b.length, 10_000), "record arrived");
            assertTrue(System.nanoTime() - t0 < TimeUnit.MILLISECONDS.toNanos(900),
                    "woken by the producer, not by the 1 s housekeeping timer");
        }
        assertTrue(spool.stop(5, TimeUnit.SECONDS));
    }

    private static boolean isSleeping(Spool spool) {
        try {
            java.lang.reflect.Field f = Spool.class.getDeclaredField("ring");
            f.setAccessible(true);
            return ((ManyToOneCellRing) f.get(spool)).signal().isSleeping();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    private static Thread findThread(String name) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no thread " + name));
    }

    @Test
    void theRingGrowsUnderBackPressureAndShrinksBackWhenIdle() throws Exception {
        TestSink sink = new TestSink().stall();
        long buffer = 16 << 10;
        Spool spool = Spool.start(SpoolConfig.builder("shrink").bufferSize(buffer).maxBufferSize(256 << 10)
                .statusListener(new RecordedStatus()).build(), sink);
        assertEquals(buffer, spool.stats().getBufferBytesInUse());
        byte[] b = new byte[100];
        for (int i = 0; i < 2_000; i++) {
            spool.append(b, 0, b.length, Severity.INFO);
        }
        assertTrue(spool.stats().getBufferBytesInUse() > buffer, "grew while the writer was stalled");
        sink.release();
        awaitTrue(() -> spool.stats().getBufferBytesInUse() == buffer, "shrinks back to bufferSize when idle");
        assertTrue(spool.stop(5, TimeUnit.SECONDS));
        assertEquals(2_000, spool.stats().getEventsWritten());
    }

    @Test
    void anMBeanPerAppenderWhileItRuns() throws Exception {
        TestSink sink = new TestSink();
        Spool spool = Spool.start(SpoolConfig.builder("jmx-test").statusListener(new RecordedStatus()).build(), sink);
        ObjectName name = new ObjectName("io.github.spool:type=Appender,context=default,name=jmx-test");
        assertTrue(ManagementFactory.getPlatformMBeanServer().isRegistered(name));
        byte[] b = "x\n".getBytes();
        spool.append(b, 0, 2, Severity.INFO);
        Object staleness = ManagementFactory.getPlatformMBeanServer().getAttribute(name, "ClockStalenessMillis");
        assertTrue((Long) staleness >= 0 && (Long) staleness < 10_000, "clock staleness readable: " + staleness);
        assertTrue(spool.stop(5, TimeUnit.SECONDS));
        // Read before unregistering would race; the stats object stays readable after stop.
        assertEquals(1L, spool.stats().getEventsWritten());
        assertFalse(ManagementFactory.getPlatformMBeanServer().isRegistered(name));
    }

    @Test
    void settingsAreValidatedWithMessagesThatNameThem() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> SpoolConfig.builder("bad").bufferSize(100).build());
        assertTrue(e.getMessage().contains("bufferSize"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> SpoolConfig.builder("bad").bufferSize(1 << 20).maxBufferSize(1 << 19).build());
        assertTrue(e.getMessage().contains("maxBufferSize"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> Severity.parse("LOUD"));
        assertTrue(e.getMessage().contains("LOUD"), e.getMessage());
        assertEquals(Severity.WARN, Severity.parse(" warn "));
    }
}
