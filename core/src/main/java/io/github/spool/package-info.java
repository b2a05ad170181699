/**
 * Spool core: the facade an adapter uses to configure, start, append encoded bytes to, and stop one
 * asynchronous appender. Sub-packages hold the parts: {@code ring} (cells, claim/commit/seal,
 * growth, overflow), {@code io} (the writer thread and sinks), {@code time} (cached clock,
 * timestamp cache), {@code text} (allocation-free UTF-8 encoding), {@code metrics} (counters and
 * the JMX MBean).
 */
package io.github.spool;
