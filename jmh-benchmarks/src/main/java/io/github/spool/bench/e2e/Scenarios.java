package io.github.spool.bench.e2e;

/** Names of the end-to-end scenarios, shared by the configuration registry and the runner. */
public final class Scenarios {

    /** 100-byte lines to stdout redirected to a file, a pipe and {@code /dev/null}. */
    public static final String CONSOLE = "console";
    /** RingLog's experiment: 1 and 5 threads of pre-formatted lines into a file. */
    public static final String RINGLOG = "ringlog";
    /** Fixed-rate producer, stdout piped into a stalling or overloaded reader; call latency. */
    public static final String STALL = "stall";
    /** Loopback echo server with one log call per request; QPS loss. */
    public static final String REQUEST = "request";
    /** Many producers (1, 4, 16, 64 threads), stdout to a file: how throughput scales with threads. */
    public static final String PRODUCERS = "producers";
    /** JSON lines (issue 33): as {@link #PRODUCERS}, with JSON layouts and encoders instead of the pattern. */
    public static final String JSON = "json";
    /** Production shape (issue 34): an Undertow server with 64 and 256 workers, 3 lines per request, open-loop load. */
    public static final String SERVER = "server";

    private Scenarios() {
    }
}
