// SPDX-License-Identifier: Apache-2.0
package io.github.spool.soak;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.function.Supplier;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The forked program of {@link ParkedProducersSoakContract}: issue 31's soak through a logging
 * framework. The framework's Spool appender ({@code BLOCK}, a 1 MiB cap) writes to a named pipe
 * that this program reads on a thread of its own; a stall is that thread not reading, so the pipe
 * fills and the writer blocks in a real write, as on a console nobody drains. Counters come from
 * the appender's MBean. Prints {@code soak-result <Result>} on standard error. Test support.
 */
public final class AdapterSoak {

    /** The appender's name in the adapters' configurations. */
    public static final String APPENDER = "soak";

    private AdapterSoak() {
    }

    /**
     * @param args   {@code producers virtual stalls stallMillis periodMillis fifo}
     * @param logger configures the framework (its first use) and returns its INFO call
     * @param stop   stops the framework (drains its appenders)
     * @throws Exception if the run fails
     */
    public static void run(String[] args, Supplier<Consumer<String>> logger, MemoryLifecycleChild.ThrowingRunnable stop)
            throws Exception {
        Path fifo = Path.of(args[5]);
        PipeReader reader = new PipeReader(fifo);
        reader.start(); // opening a pipe to read waits for its writer: the appender, opened next
        Consumer<String> log = logger.get();
        String line = "soak line from a parked producer " + "x".repeat(40);
        ParkedProducersSoak.Result r = ParkedProducersSoak.run(new ParkedProducersSoak.Rig() {
            private ObjectName mbean;

            @Override
            public void logOne() {
                log.accept(line);
            }

            @Override
            public void stall() {
                reader.stall();
            }

            @Override
            public void release() {
                reader.release();
            }

            @Override
            public long written() {
                return counter("EventsWritten");
            }

            @Override
            public long lost() {
                return counter("EventsLost");
            }

            private long counter(String attribute) {
                try {
                    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
                    if (mbean == null) {
                        for (ObjectName n : server.queryNames(new ObjectName("io.github.spool:type=Appender,*"), null)) {
                            String name = n.getKeyProperty("name");
                            if (APPENDER.equals(name) || ObjectName.quote(APPENDER).equals(name)) {
                                mbean = n;
                            }
                        }
                    }
                    return ((Number) server.getAttribute(mbean, attribute)).longValue();
                } catch (Exception e) {
                    throw new IllegalStateException("the appender's MBean", e);
                }
            }

            @Override
            public void stop() throws Exception {
                stop.run();
            }
        }, Integer.parseInt(args[0]), Boolean.parseBoolean(args[1]), Integer.parseInt(args[2]),
                Long.parseLong(args[3]), Long.parseLong(args[4]));
        System.err.println("soak-result " + r.encode());
    }

    /** Reads the pipe and throws the bytes away, except while stalled. */
    private static final class PipeReader extends Thread {
        private final Path fifo;
        private volatile CountDownLatch gate = new CountDownLatch(0);

        PipeReader(Path fifo) {
            super("soak-pipe-reader");
            setDaemon(true);
            this.fifo = fifo;
        }

        void stall() {
            gate = new CountDownLatch(1);
        }

        void release() {
            gate.countDown();
        }

        @Override
        public void run() {
            byte[] buf = new byte[64 << 10];
            try (InputStream in = new FileInputStream(fifo.toFile())) {
                for (;;) {
                    gate.await();
                    if (in.read(buf) < 0) {
                        return; // the appender closed the pipe
                    }
                }
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
