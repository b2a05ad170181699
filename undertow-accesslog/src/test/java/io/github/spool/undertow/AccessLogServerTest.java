package io.github.spool.undertow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.SpoolConfig;
import io.undertow.Undertow;
import io.undertow.server.handlers.accesslog.AccessLogHandler;
import io.undertow.util.Headers;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Undertow server on loopback with {@link AccessLogHandler} over a
 * {@link SpoolAccessLogReceiver} writing to a file: 10,000 requests from 4 client threads, then
 * every access-log line must be present once, complete and well-formed.
 *
 * <p>The server counts what it handled per request: the JDK's {@code HttpClient} retries a GET
 * whose pooled connection fails under it, so the server may handle (and log) a request twice
 * while the client counts it once. The test holds the log to the server's count, exactly.
 */
class AccessLogServerTest {

    private static final int THREADS = 4;
    private static final int REQUESTS_PER_THREAD = 2_500;
    /** Ends in non-ASCII text: the line must come out as UTF-8, whole. */
    private static final String PATTERN =
            "%h %l %u %{spoolTime} \"%r\" %s %b %{i,X-Seq} %{spoolTime,yyyy-MM-dd HH:mm:ss.SSS} \u2013 fin\u00e9";
    private static final Pattern LINE = Pattern.compile(
            "127\\.0\\.0\\.1 - - (\\[[^\\]]+\\]) \"GET /r/(\\d)/(\\d+)/caf%C3%A9 HTTP/1\\.1\" 200 2 (\\d+)-(\\d+) "
            + "(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3}) \u2013 fin\u00e9");
    private static final DateTimeFormatter COMMON_LOG =
            DateTimeFormatter.ofPattern("'['dd/MMM/yyyy:HH:mm:ss Z']'", Locale.US);

    @Test
    void everyRequestHasOneCompleteLine(@TempDir Path dir) throws Exception {
        final Path file = dir.resolve("access.log");
        final SpoolAccessLogReceiver receiver = SpoolAccessLogReceiver.start(
                SpoolConfig.builder(SpoolAccessLogReceiver.DEFAULT_NAME).context("server-test").file(file).build());
        final Map<String, AtomicInteger> handled = new ConcurrentHashMap<>();
        final Undertow server = Undertow.builder()
                .addHttpListener(0, "127.0.0.1")
                .setHandler(new AccessLogHandler(exchange -> {
                    handled.computeIfAbsent(exchange.getRequestHeaders().getFirst("X-Seq"), k -> new AtomicInteger())
                            .incrementAndGet();
                    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain");
                    exchange.getResponseSender().send("ok");
                }, receiver, PATTERN, getClass().getClassLoader()))
                .build();
        server.start();
        final int handledTotal;
        final long startMillis = System.currentTimeMillis();
        try {
            assertTrue(ManagementFactory.getPlatformMBeanServer().isRegistered(new ObjectName(
                    "io.github.spool:type=Appender,context=server-test,name=" + SpoolAccessLogReceiver.DEFAULT_NAME)));
            final int port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
            final ExecutorService clients = Executors.newFixedThreadPool(THREADS);
            final List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                final int thread = t;
                done.add(clients.submit(() -> drive(port, thread)));
            }
            for (Future<Integer> f : done) {
                assertEquals(REQUESTS_PER_THREAD, f.get(60, TimeUnit.SECONDS));
            }
            clients.shutdown();
            // Every request answered was handled first: the count is final once the clients are done.
            handledTotal = handled.values().stream().mapToInt(AtomicInteger::get).sum();
            assertTrue(handledTotal >= THREADS * REQUESTS_PER_THREAD, "handled " + handledTotal);
            // The completion listener runs after the response is sent: wait for the exact count.
            awaitWritten(receiver, handledTotal, TimeUnit.SECONDS.toNanos(30));
        } finally {
            server.stop();
            assertTrue(receiver.stop(10, TimeUnit.SECONDS), "drained");
        }
        final long endMillis = System.currentTimeMillis();
        assertEquals(0, receiver.stats().getEventsLost() + receiver.stats().getEventsDiscarded());

        final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(handledTotal, lines.size(), "one line per request handled");
        final Map<String, Integer> seen = new HashMap<>();
        for (String line : lines) {
            final Matcher m = LINE.matcher(line);
            assertTrue(m.matches(), () -> "malformed line: " + line);
            assertEquals(m.group(2) + "-" + m.group(3), m.group(4) + "-" + m.group(5), "the path and header agree");
            seen.merge(m.group(4) + "-" + m.group(5), 1, Integer::sum);
            final long at = OffsetDateTime.parse(m.group(1), COMMON_LOG).toInstant().toEpochMilli();
            assertTrue(at >= startMillis / 1000 * 1000 - 1000 && at <= endMillis, () -> "time out of the run: " + line);
        }
        assertEquals(THREADS * REQUESTS_PER_THREAD, seen.size(), "every request logged");
        for (Map.Entry<String, Integer> e : seen.entrySet()) {
            assertEquals(handled.get(e.getKey()).get(), e.getValue(), () -> "lines for request " + e.getKey());
        }
    }

    private static int drive(int port, int thread) throws Exception {
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        int ok = 0;
        for (int i = 0; i < REQUESTS_PER_THREAD; i++) {
            final HttpRequest request = HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + "/r/" + thread + "/" + i + "/caf%C3%A9"))
                    .header("X-Seq", thread + "-" + i).GET().build();
            final HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200 && response.body().equals("ok")) {
                ok++;
            }
        }
        return ok;
    }

    /** Polls the writer's exact count until it reaches {@code expected} or the deadline passes. */
    static void awaitWritten(SpoolAccessLogReceiver receiver, long expected, long timeoutNanos) {
        final long deadline = System.nanoTime() + timeoutNanos;
        long written;
        while ((written = receiver.stats().getEventsWritten()) < expected && System.nanoTime() < deadline) {
            LockSupport.parkNanos(1_000_000);
        }
        assertEquals(expected, written, "lines written");
    }
}
