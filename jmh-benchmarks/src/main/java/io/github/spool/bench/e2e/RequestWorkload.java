package io.github.spool.bench.e2e;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Child-JVM program of the request-handler scenario (RingLog's echo server): a loopback echo
 * server with one thread per connection and one log call per request, driven by as many
 * ping-pong clients as connections. Each request also costs {@code work} microseconds of CPU on
 * the server thread (a stand-in for a handler's own work, so that QPS is bound by CPU rather than
 * by wake-up latency alone). Measures requests per second in a fixed window after a warm-up; the
 * QPS loss is computed against the no-logging configuration.
 *
 * <p>Usage: {@code RequestWorkload <configuration> connections=2 work=20 warmup=1 seconds=3 result=<file>}.
 * Results: {@code qps}, {@code produced.<i>} (log calls made by server thread {@code i}), and
 * {@code call.nanos.mean}: how long the log call took on the server thread, on average over every
 * request (two {@code System.nanoTime} calls around it; the no-logging configuration shows what
 * they cost) — what the call itself adds to a request, against what the loss is.
 */
public final class RequestWorkload {

    private static final int REQUEST_BYTES = 64;

    private RequestWorkload() {
    }

    /**
     * Runs the workload.
     *
     * @param args {@code <configuration> key=value...}
     * @throws Exception if the run fails; the exit status is then non-zero
     */
    public static void main(String[] args) throws Exception {
        WorkloadArgs a = WorkloadArgs.parse(args);
        int connections = (int) a.longValue("connections", 2);
        double warmup = a.doubleValue("warmup", 1);
        double seconds = a.doubleValue("seconds", 3);
        long workNanos = a.longValue("work", 20) * 1000;
        Subject subject = a.configuration().factory().get();
        subject.start();

        AtomicReference<Throwable> failure = new AtomicReference<>();
        // Our own flag: Socket.isOutputShutdown() reads a plain field, not safe to poll from another thread.
        AtomicBoolean stopping = new AtomicBoolean();
        AtomicLongArray served = new AtomicLongArray(connections);
        AtomicLongArray answered = new AtomicLongArray(connections);
        AtomicLongArray callNanos = new AtomicLongArray(connections);
        Thread[] servers = new Thread[connections];
        Thread[] clients = new Thread[connections];
        Socket[] clientSockets = new Socket[connections];
        try (ServerSocket listener = new ServerSocket(0, connections, InetAddress.getLoopbackAddress())) {
            for (int i = 0; i < connections; i++) {
                clientSockets[i] = new Socket(listener.getInetAddress(), listener.getLocalPort());
                clientSockets[i].setTcpNoDelay(true);
                Socket accepted = listener.accept();
                accepted.setTcpNoDelay(true);
                int index = i;
                servers[i] = new Thread(() -> serve(accepted, subject, index, workNanos, served, callNanos, failure), EventLine.threadName(i));
                clients[i] = new Thread(() -> drive(clientSockets[index], index, answered, stopping, failure), "client-" + i);
            }
        }
        for (int i = 0; i < connections; i++) {
            servers[i].start();
            clients[i].start();
        }
        // A measurement window, not synchronisation: the threads run freely meanwhile.
        Thread.sleep((long) (warmup * 1000));
        long before = sum(answered);
        long t0 = System.nanoTime();
        Thread.sleep((long) (seconds * 1000));
        long after = sum(answered);
        long t1 = System.nanoTime();
        stopping.set(true);
        for (Socket s : clientSockets) {
            s.shutdownOutput(); // the server sees end of stream after the request in flight and exits
        }
        for (int i = 0; i < connections; i++) {
            clients[i].join();
            servers[i].join();
            clientSockets[i].close();
        }
        java.util.Map<String, String> cpu = CpuFacts.snapshot();
        subject.stop();
        if (failure.get() != null) {
            throw new IllegalStateException("a connection failed", failure.get());
        }

        a.put("connections", connections);
        a.put("work.micros", workNanos / 1000);
        a.put("qps", String.format("%.1f", (after - before) / ((t1 - t0) / 1e9)));
        long events = 0;
        long inCalls = 0;
        for (int i = 0; i < connections; i++) {
            a.put("produced." + i, served.get(i));
            events += served.get(i);
            inCalls += callNanos.get(i);
        }
        a.put("events", events);
        a.put("call.nanos.mean", events == 0 ? 0 : inCalls / events);
        a.putAll(subject.facts());
        a.putAll(cpu);
        a.writeResults();
    }

    private static void serve(Socket socket, Subject subject, int index, long workNanos, AtomicLongArray served,
                              AtomicLongArray callNanos, AtomicReference<Throwable> failure) {
        try (socket) {
            Subject.Caller caller = subject.caller(index);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            byte[] request = new byte[REQUEST_BYTES];
            long inCalls = 0;
            for (long seq = 0; ; seq++) {
                if (!readFully(in, request)) {
                    return;
                }
                work(workNanos);
                long before = System.nanoTime();
                caller.log(seq);
                inCalls += System.nanoTime() - before;
                callNanos.lazySet(index, inCalls); // this thread's only: read after the join
                served.lazySet(index, seq + 1);
                out.write(request);
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        }
    }

    private static void drive(Socket socket, int index, AtomicLongArray answered, AtomicBoolean stopping,
                              AtomicReference<Throwable> failure) {
        try {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            OutputStream out = socket.getOutputStream();
            byte[] request = new byte[REQUEST_BYTES];
            byte[] response = new byte[REQUEST_BYTES];
            while (!stopping.get()) {
                out.write(request);
                if (!readFully(in, response)) {
                    return;
                }
                answered.lazySet(index, answered.get(index) + 1);
            }
        } catch (IOException e) {
            if (!stopping.get()) { // a write racing with the shutdown of its own output is expected
                failure.compareAndSet(null, e);
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        }
    }

    /**
     * Busy work for a fixed time: the handler's own CPU cost, the same with and without logging
     * (also the access-log server's handler).
     *
     * @param nanos how long
     */
    public static void work(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    private static boolean readFully(DataInputStream in, byte[] buf) throws IOException {
        int n = 0;
        while (n < buf.length) {
            int r = in.read(buf, n, buf.length - n);
            if (r < 0) {
                return false;
            }
            n += r;
        }
        return true;
    }

    private static long sum(AtomicLongArray a) {
        long s = 0;
        for (int i = 0; i < a.length(); i++) {
            s += a.get(i);
        }
        return s;
    }
}
