/**
 * Undertow access logs through Spool: the {@code %{spoolTime}} and {@code %{spoolTime,PATTERN}}
 * exchange attributes ({@link io.github.spool.undertow.SpoolTimeAttribute}), byte-identical to
 * Undertow's {@code %t} and {@code %{time,PATTERN}} but read from the cached clock and the
 * per-second timestamp cache, and {@link io.github.spool.undertow.SpoolAccessLogReceiver}, which
 * writes access-log lines through Spool's ring instead of a queue and an executor.
 */
package io.github.spool.undertow;
