package io.github.spool;

import java.util.ArrayList;
import java.util.List;

/** A status listener that records what it is told. */
final class RecordedStatus implements StatusListener {
    final List<String> messages = new ArrayList<>();

    @Override
    public synchronized void status(Level level, String message, Throwable cause) {
        messages.add(level + " " + message);
    }

    synchronized long count(Level level) {
        return messages.stream().filter(m -> m.startsWith(level.name() + " ")).count();
    }

    @Override
    public synchronized String toString() {
        return String.join("\n", messages);
    }
}
