// SPDX-License-Identifier: Apache-2.0
/**
 * Spool core: the asynchronous appender an adapter configures, starts, appends bytes to and
 * stops. Applications reach it through an adapter module ({@code io.github.spool.log4j2},
 * {@code io.github.spool.logback}, {@code io.github.spool.undertow}); only the facade and the
 * metrics are exported to everyone, the parts the adapters share are exported to them alone.
 */
@SuppressWarnings("module") // the qualified exports name Spool's other modules, absent when core compiles
module io.github.spool.core {
    // The MBean server (JmxRegistry) and the direct buffer pool's usage (the ring's cap check);
    // transitive because JmxRegistry's public methods name ObjectName and JMException.
    requires transitive java.management;
    // Event classes extend jdk.jfr.Event and the writer creates them unconditionally: not static.
    requires jdk.jfr;
    // On JDK 17 to 23 cells free their memory at once through sun.misc.Unsafe#invokeCleaner,
    // looked up by reflection; without this module the garbage collector frees them, late, and
    // direct memory can sit above maxBufferSize. Required so that a modular application (and a
    // jlink image) gets prompt freeing without --add-modules. Unused on JDK 24+ (FFM arenas).
    requires jdk.unsupported;
    // HotSpotDiagnosticMXBean for -XX:MaxDirectMemorySize, looked up by reflection; without it
    // the cap check leaves the decision to ByteBuffer.allocateDirect.
    requires static jdk.management;

    exports io.github.spool;
    // The MXBean interface that JMX introspects and spool-micrometer reads.
    exports io.github.spool.metrics;

    exports io.github.spool.io to
            io.github.spool.log4j2, io.github.spool.logback, io.github.spool.undertow;
    exports io.github.spool.io.rolling to
            io.github.spool.log4j2, io.github.spool.logback, io.github.spool.undertow;
    exports io.github.spool.text to
            io.github.spool.log4j2, io.github.spool.logback, io.github.spool.undertow;
    exports io.github.spool.time to
            io.github.spool.log4j2, io.github.spool.logback, io.github.spool.undertow;
}
