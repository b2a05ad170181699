package io.github.spool;

import io.github.spool.metrics.LiveAppender;
import io.github.spool.metrics.LiveAppenders;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hook metrics libraries follow appenders by: told of each start and stop, a reconfiguration's
 * successor replacing its predecessor as it does in JMX, same-named contexts told apart by id.
 */
class LiveAppendersTest {
    private static final String CONTEXT = "live-appenders-test";

    /** Records what it is told, as "+name#id" and "-name#id", for this test's context only. */
    private static final class Recorder implements LiveAppenders.Listener {
        final List<String> events = new ArrayList<>();
        final List<LiveAppender> live = new ArrayList<>();

        @Override
        public synchronized void added(LiveAppender a) {
            if (a.context().equals(CONTEXT)) {
                events.add("+" + a.name() + "#" + a.id());
                live.add(a);
            }
        }

        @Override
        public synchronized void removed(LiveAppender a) {
            if (a.context().equals(CONTEXT)) {
                events.add("-" + a.name() + "#" + a.id());
                assertTrue(live.remove(a), "removed what was added");
            }
        }

        synchronized List<String> events() {
            return new ArrayList<>(events);
        }
    }

    private static Spool start(String name, Object contextIdentity) {
        return Spool.start(SpoolConfig.builder(name).context(CONTEXT).contextIdentity(contextIdentity)
                .statusListener(new RecordedStatus()).build(), new TestSink());
    }

    private static void stop(Spool spool) throws InterruptedException {
        assertTrue(spool.stop(10, TimeUnit.SECONDS));
        assertTrue(spool.awaitEndForTest(10, TimeUnit.SECONDS)); // unregistered once its writer ended
    }

    @Test
    void listenersFollowStartsStopsAndReplacements() throws Exception {
        Object contextA = new Object();
        Object contextB = new Object();
        Spool running = start("a", contextA);
        Recorder r = new Recorder();
        LiveAppenders.Subscription sub = LiveAppenders.subscribe(r);
        try {
            assertEquals(List.of("+a#1"), r.events(), "told of the appenders already running");
            assertSame(running.stats(), r.live.get(0).stats());

            Spool successor = start("a", contextA); // a reconfiguration: new before old stops
            stop(running);
            Spool other = start("a", contextB);     // another context of the same name
            stop(successor);
            stop(other);
            assertEquals(List.of("+a#1", "-a#1", "+a#1", "+a#2", "-a#1", "-a#2"), r.events());
            assertTrue(r.live.isEmpty());
        } finally {
            sub.close();
        }
        Spool after = start("b", contextA);
        stop(after);
        assertEquals(6, r.events().size(), "nothing after the subscription closed");
    }

    @Test
    void batchWritesAreTimed() throws Exception {
        Spool spool = start("timed", new Object());
        byte[] line = "a line\n".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 100; i++) {
            spool.append(line, 0, line.length, Severity.INFO);
        }
        stop(spool);
        long timed = spool.stats().timedWrites();
        assertTrue(timed > 0 && timed <= spool.stats().getWriteCalls(), "timed " + timed);
        assertTrue(spool.stats().writeNanos() > 0);
    }
}
