package io.github.spool.bench.e2e;

/**
 * {@code System.out.println} of a formatted line: the JDK's console path (a synchronized
 * autoflushing {@code PrintStream} over a 128-byte {@code BufferedOutputStream}), the seed's
 * baseline.
 */
final class PrintlnSubject implements Subject {

    @Override
    public void start() {
        // nothing to configure
    }

    @Override
    public Caller caller(int threadIndex) {
        LineFormatter f = new LineFormatter(EventLine.threadName(threadIndex));
        return seq -> System.out.println(f.formatString(seq));
    }

    @Override
    public void stop() {
        System.out.flush();
    }
}
