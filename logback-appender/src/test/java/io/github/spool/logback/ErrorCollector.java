package io.github.spool.logback;

import ch.qos.logback.core.status.Status;
import ch.qos.logback.core.status.StatusListener;
import java.util.List;

/** Test helper: keeps every ERROR status of a logback context; survives {@code reset()}. */
final class ErrorCollector implements StatusListener {
    private final List<Status> errors;

    ErrorCollector(List<Status> errors) {
        this.errors = errors;
    }

    @Override
    public void addStatusEvent(Status status) {
        if (status.getLevel() == Status.ERROR) {
            errors.add(status);
        }
    }

    @Override
    public boolean isResetResistant() {
        return true;
    }
}
