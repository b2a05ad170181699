// SPDX-License-Identifier: Apache-2.0
package io.github.spool.dropin;

import io.github.spool.SpoolConfig;
import io.github.spool.StatusListener;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One Spool appender named {@value #NAME}, configured through its framework's own configuration
 * (a log4j2 XML file, logback Joran) with layout {@code %m%n}, and the status messages that naming
 * it produced. What {@link SettingsContract} asks an adapter for. Test support.
 */
public interface Configured extends AutoCloseable {

    /** The appender's name in every configuration the contract makes. */
    String NAME = "dropin";

    /** One status message, in core's levels. */
    record Status(StatusListener.Level level, String message) {
        @Override
        public String toString() {
            return level + " " + message;
        }
    }

    /** @return whether the framework reports the appender started */
    boolean started();

    /** @return the settings core runs it with */
    SpoolConfig config();

    /** @return status messages that name the appender ({@code spool appender 'dropin'}), in order */
    List<Status> statuses();

    /**
     * Logs one message at INFO through the framework.
     *
     * @param message the message
     */
    void log(String message);

    /** Stops the framework, which drains the appender. */
    @Override
    void close();

    /**
     * @param level a level
     * @return the messages at that level
     */
    default List<String> statuses(StatusListener.Level level) {
        return statuses().stream().filter(s -> s.level() == level).map(Status::message).collect(Collectors.toList());
    }
}
