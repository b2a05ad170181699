package io.github.spool.bench.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The production-shape scenario's load generator: a fixed number of HTTP/1.1 keep-alive connections
 * over loopback, one request in flight per connection, driven by two threads of the suite's JVM — the
 * caller sends on {@link OpenLoopRecorder}'s schedule, a reader thread takes the responses from a
 * selector and records each one's latency from its intended send time. A request due while every
 * connection is busy waits for the first one free, and its wait counts in its latency.
 */
public final class HttpLoad implements AutoCloseable {

    private static final long RESPONSE_TIMEOUT_SECONDS = 60;

    private final int port;
    private final Selector selector;
    private final List<Connection> connections = new ArrayList<>();
    /** Connections with no request in flight: the reader hands each one back to the sender here. */
    private final BlockingQueue<Connection> free;
    private final Thread reader;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    /** The current phase's recorder: written by the sender before its first request, read by the reader. */
    private volatile OpenLoopRecorder recorder;
    private volatile boolean closed;

    /**
     * Opens the connections and starts the reader thread.
     *
     * @param port        the server's port on 127.0.0.1
     * @param connections how many keep-alive connections
     * @throws IOException if a connection cannot be opened
     */
    public HttpLoad(int port, int connections) throws IOException {
        this.port = port;
        this.selector = Selector.open();
        this.free = new ArrayBlockingQueue<>(connections);
        byte[] request = ("GET /orders HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < connections; i++) {
            SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.configureBlocking(false);
            Connection c = new Connection(channel, request);
            channel.register(selector, SelectionKey.OP_READ, c);
            this.connections.add(c);
            free.add(c);
        }
        reader = new Thread(this::read, "http-load-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Waits until the server at {@code port} answers {@code GET path}: the child JVM is starting.
     *
     * @param port    the server's port on 127.0.0.1
     * @param path    a control path that answers at once
     * @param timeout how long to keep trying, milliseconds
     * @param alive   whether the server's process still runs (stop trying when it does not)
     * @return the answer's body
     * @throws IOException if the server does not answer in time
     */
    public static String awaitAnswer(int port, String path, long timeout, java.util.function.BooleanSupplier alive)
            throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout);
        while (true) {
            try {
                return get(port, path);
            } catch (ConnectException e) {
                if (System.nanoTime() > deadline || !alive.getAsBoolean()) {
                    throw new IOException("the server on port " + port + " did not start", e);
                }
                // a process starting up, not a thread of ours: nothing to wait on but the port
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
            }
        }
    }

    /**
     * One control request on a connection of its own.
     *
     * @param port the server's port on 127.0.0.1
     * @param path the path
     * @return the answer's body
     * @throws IOException if it fails
     */
    public static String get(int port, String path) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create("http://127.0.0.1:" + port + path).toURL().openConnection();
        c.setConnectTimeout(5_000);
        c.setReadTimeout(60_000);
        try (InputStream in = c.getInputStream()) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).strip();
        } finally {
            c.disconnect();
        }
    }

    /**
     * Runs one load phase and returns once every request sent has been answered.
     *
     * @param rate    requests per second on a fixed schedule (open loop), or 0 for a closed loop
     * @param seconds how long requests fall due
     * @return the phase's latencies and achieved rate
     * @throws IOException          if a connection fails
     * @throws InterruptedException if interrupted
     */
    public OpenLoopRecorder run(double rate, double seconds) throws IOException, InterruptedException {
        OpenLoopRecorder r = new OpenLoopRecorder(System::nanoTime, rate);
        recorder = r;
        long start = r.start();
        long end = start + (long) (seconds * 1e9);
        // An open loop far behind its schedule (an overloaded server) stops sending at twice the window.
        long giveUp = start + 2 * (end - start);
        for (long n = 0; ; n++) {
            long intended = r.intendedNanos(n);
            if (intended >= end) {
                break;
            }
            long wait;
            while ((wait = intended - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            Connection c = take();
            long now = System.nanoTime();
            if (now >= giveUp || (!r.openLoop() && now >= end)) {
                free.add(c);
                break;
            }
            c.send(r.openLoop() ? intended : now);
        }
        List<Connection> all = new ArrayList<>();
        for (int i = 0; i < connections.size(); i++) {
            all.add(take());
        }
        free.addAll(all);
        return r;
    }

    private Connection take() throws IOException, InterruptedException {
        Connection c = free.poll(RESPONSE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (failure.get() != null) {
            throw new IOException("a connection failed", failure.get());
        }
        if (c == null) {
            throw new IOException("no answer within " + RESPONSE_TIMEOUT_SECONDS + " s");
        }
        return c;
    }

    private void read() {
        try {
            while (!closed) {
                selector.select();
                for (SelectionKey key : selector.selectedKeys()) {
                    Connection c = (Connection) key.attachment();
                    if (c.receive()) {
                        recorder.completed(c.intended);
                        free.add(c);
                    }
                }
                selector.selectedKeys().clear();
            }
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                failure.compareAndSet(null, e);
                free.offer(connections.get(0)); // wakes a sender waiting for a connection, which then sees the failure
            }
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        selector.wakeup();
        try {
            reader.join(TimeUnit.SECONDS.toMillis(RESPONSE_TIMEOUT_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the channels close below all the same
        }
        for (Connection c : connections) {
            c.channel.close();
        }
        selector.close();
    }

    /** @return the port driven */
    public int port() {
        return port;
    }

    /** One keep-alive connection with at most one request in flight. */
    private static final class Connection {

        private final SocketChannel channel;
        private final byte[] request;
        private final ByteBuffer in = ByteBuffer.allocate(16 * 1024);
        /**
         * When the request in flight was due. Written by the sender before it writes the request,
         * read by the reader after the answer arrived; the socket in between is no happens-before
         * edge, so the field is volatile.
         */
        private volatile long intended;

        Connection(SocketChannel channel, byte[] request) {
            this.channel = channel;
            this.request = request;
        }

        void send(long intendedNanos) throws IOException {
            intended = intendedNanos;
            ByteBuffer out = ByteBuffer.wrap(request);
            while (out.hasRemaining()) {
                if (channel.write(out) == 0) {
                    Thread.onSpinWait(); // a 50-byte request into an empty socket buffer: not in practice
                }
            }
        }

        /** @return whether a whole response has arrived (then the buffer is empty again) */
        boolean receive() throws IOException {
            if (channel.read(in) < 0) {
                throw new IOException("the server closed a connection");
            }
            byte[] b = in.array();
            int headerEnd = -1;
            for (int i = 3; i < in.position(); i++) {
                if (b[i] == '\n' && b[i - 1] == '\r' && b[i - 2] == '\n' && b[i - 3] == '\r') {
                    headerEnd = i + 1;
                    break;
                }
            }
            if (headerEnd < 0) {
                return false;
            }
            String head = new String(b, 0, headerEnd, StandardCharsets.US_ASCII);
            if (!head.startsWith("HTTP/1.1 200")) {
                throw new IOException("unexpected answer: " + head.lines().findFirst().orElse(head));
            }
            int at = head.toLowerCase(Locale.ROOT).indexOf("content-length:");
            if (at < 0) {
                throw new IOException("no Content-Length: " + head);
            }
            int eol = head.indexOf('\r', at);
            int length = Integer.parseInt(head.substring(at + "content-length:".length(), eol).trim());
            if (in.position() < headerEnd + length) {
                return false;
            }
            if (in.position() > headerEnd + length) {
                throw new IOException("more than one answer to one request");
            }
            in.clear();
            return true;
        }
    }
}
