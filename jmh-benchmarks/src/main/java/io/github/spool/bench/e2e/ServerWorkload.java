package io.github.spool.bench.e2e;

import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.BlockingHandler;
import io.undertow.util.Headers;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Child-JVM program of the production-shape scenario (issue 34): an embedded Undertow server whose
 * handler is dispatched to a worker pool of {@code workers} threads and blocks there, as a
 * servlet-style application does; each request logs {@link ServerLog}'s lines and answers a small
 * body. The load comes from another JVM ({@link HttpLoad} in the suite), so this process's CPU is
 * the server's alone.
 *
 * <p>Two control paths answered on the I/O thread, never logged: {@code GET /cpu} answers the
 * process's CPU time in nanoseconds (the load generator reads it at the edges of each timed
 * window), {@code GET /stop} stops the server once answered.
 *
 * <p>Usage: {@code ServerWorkload <configuration> port=8080 workers=64 result=<file>}. Results:
 * {@code requests}, {@code logged.lines} (log lines written, which the runner counts in the output).
 */
public final class ServerWorkload {

    /** Path of the CPU-time control request. */
    public static final String CPU_PATH = "/cpu";
    /** Path of the stop control request. */
    public static final String STOP_PATH = "/stop";

    private static final byte[] BODY = "{\"status\":\"ok\",\"items\":3}\n".getBytes(StandardCharsets.US_ASCII);

    private ServerWorkload() {
    }

    /**
     * Runs the server until {@code GET /stop}.
     *
     * @param args {@code <configuration> key=value...}
     * @throws Exception if the run fails; the exit status is then non-zero
     */
    public static void main(String[] args) throws Exception {
        // Undertow and XNIO log through JBoss Logging, which would pick the framework under test and
        // write its start-up lines into the output being measured: send them to JUL (stderr) instead.
        System.setProperty("org.jboss.logging.provider", "jdk");
        WorkloadArgs a = WorkloadArgs.parse(args);
        int port = (int) a.longValue("port", 8080);
        int workers = (int) a.longValue("workers", 64);
        Subject subject = a.configuration().factory().get();
        subject.start();
        ServerLog log = ServerLog.of(subject);

        AtomicLong requests = new AtomicLong();
        AtomicLong lines = new AtomicLong();
        HttpHandler app = new BlockingHandler(exchange -> {
            long seq = requests.getAndIncrement();
            lines.addAndGet(log.request(seq, exchange.getRequestPath()));
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
            exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, BODY.length);
            exchange.getOutputStream().write(BODY);
        });
        CountDownLatch stop = new CountDownLatch(1);
        HttpHandler routes = exchange -> {
            switch (exchange.getRequestPath()) {
                case CPU_PATH -> answer(exchange, Long.toString(CpuFacts.processCpuNanos()));
                case STOP_PATH -> {
                    // released once the answer is on its way, so the caller sees it before the server goes
                    exchange.addExchangeCompleteListener((done, next) -> {
                        next.proceed();
                        stop.countDown();
                    });
                    answer(exchange, "stopping");
                }
                default -> app.handleRequest(exchange);
            }
        };
        Undertow server = Undertow.builder().addHttpListener(port, "127.0.0.1").setWorkerThreads(workers)
                .setHandler(routes).build();
        server.start();
        stop.await();
        server.stop();
        Map<String, String> cpu = CpuFacts.snapshot();
        subject.stop();

        a.put("workers", workers);
        a.put("requests", requests.get());
        a.put("logged.lines", lines.get());
        a.putAll(subject.facts());
        a.putAll(cpu);
        a.writeResults();
    }

    private static void answer(HttpServerExchange exchange, String text) {
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain");
        exchange.getResponseSender().send(text);
    }
}
