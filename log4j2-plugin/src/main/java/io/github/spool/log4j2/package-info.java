/**
 * log4j2 plugins over Spool core: {@link io.github.spool.log4j2.SpoolClock} for
 * {@code -Dlog4j.Clock}, the garbage-free {@code <SpoolLayout>} ({@link
 * io.github.spool.log4j2.SpoolLayout}) and the asynchronous {@code <Spool>} appender ({@link
 * io.github.spool.log4j2.SpoolAppender}). The plugins are listed in the generated {@code
 * Log4j2Plugins.dat}, so log4j2 finds them without a {@code packages} attribute.
 */
package io.github.spool.log4j2;
