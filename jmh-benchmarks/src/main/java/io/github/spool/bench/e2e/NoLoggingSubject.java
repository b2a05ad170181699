package io.github.spool.bench.e2e;

/** No logging at all: the request-handler baseline against which QPS loss is measured. */
final class NoLoggingSubject implements Subject {

    @Override
    public void start() {
        // nothing to start
    }

    @Override
    public Caller caller(int threadIndex) {
        return seq -> {
        };
    }

    @Override
    public void stop() {
        // nothing to stop
    }
}
