package io.github.spool.bench.report;

/** Names and units of the metrics in {@link Sample#metrics()}. */
public final class Metric {

    /** End-to-end throughput: events per second from the first call until stopped and flushed. */
    public static final String EVENTS_PER_SECOND = "events_per_s";
    /** Producer-side throughput: events per second until the last call returned (backlog not flushed). */
    public static final String PRODUCE_PER_SECOND = "produce_events_per_s";
    /** Call duration percentiles, microseconds. */
    public static final String P50_US = "p50_us";
    /** 99th percentile call duration, microseconds. */
    public static final String P99_US = "p99_us";
    /** 99.9th percentile call duration, microseconds. */
    public static final String P999_US = "p999_us";
    /** Longest call, microseconds. */
    public static final String MAX_US = "max_us";
    /** Events produced. */
    public static final String PRODUCED = "produced";
    /** Events found in the output. */
    public static final String DELIVERED = "delivered";
    /** Time the framework took to stop (drain its backlog), milliseconds. */
    public static final String STOP_MS = "stop_ms";
    /** Requests per second. */
    public static final String QPS = "qps";
    /** Mean duration of the logging call inside a request, microseconds. */
    public static final String CALL_US_MEAN = "call_us_mean";
    /** The Spool writer thread's CPU time per request (per event), microseconds; 0 without one. */
    public static final String WRITER_CPU_US = "writer_cpu_us_per_event";
    /** Process CPU time (every thread) per event, first call to stopped, nanoseconds. */
    public static final String CPU_NS_PER_EVENT = "cpu_ns_per_event";
    /** Requests per second of a closed loop (as many requests as connections always in flight): the maximum. */
    public static final String MAX_QPS = "max_qps";
    /** Process CPU time of the server JVM per request in the timed window, microseconds. */
    public static final String CPU_US_PER_REQUEST = "cpu_us_per_request";
    /** JMH average time per operation, nanoseconds. */
    public static final String NS_PER_OP = "ns_per_op";
    /** JMH score error (99.9% confidence half-width), nanoseconds. */
    public static final String NS_PER_OP_ERROR = "ns_per_op_error";
    /** JMH {@code gc.alloc.rate.norm}: bytes allocated per operation. */
    public static final String BYTES_PER_OP = "alloc_bytes_per_op";

    private Metric() {
    }
}
