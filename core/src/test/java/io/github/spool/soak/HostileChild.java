package io.github.spool.soak;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The forked half of {@link HostileInputContract}: runs one case in a JVM with a
 * {@value HostileInput#HEAP} heap and prints its figures ({@code key=value} lines) to standard
 * output for the contract to check. Modes: {@code big} (a 10 MiB message between numbered events of
 * two threads) and {@code loggers} (two million distinct logger names); an adapter may add its own
 * through {@link #run(String, Path)}. An adapter's {@code HostileMain} says how its framework is
 * configured. Test support.
 */
public abstract class HostileChild {

    /**
     * Starts the differential of {@link HostileInputContract} with pattern "thread, message", the
     * render mode asserted.
     *
     * @param dir where the outputs go
     * @return the started configuration
     * @throws Exception if it cannot be started
     */
    protected abstract HostileInputContract.Run big(Path dir) throws Exception;

    /**
     * Starts the two Spool appenders of {@link HostileInputContract} (not the oracle, which would
     * measure the framework) with a pattern that prints the logger name abbreviated and whole and
     * the message, the render mode asserted.
     *
     * @param dir where the outputs go
     * @return the started configuration
     * @throws Exception if it cannot be started
     */
    protected abstract HostileInputContract.Run loggers(Path dir) throws Exception;

    /**
     * Runs a mode of the adapter's own.
     *
     * @param mode the mode
     * @param dir  where the outputs go
     * @throws Exception on failure; by default, an unknown mode
     */
    protected void run(String mode, Path dir) throws Exception {
        throw new IllegalArgumentException(mode);
    }

    /**
     * @param args mode and the output directory
     * @throws Exception on failure (the test sees a non-zero exit)
     */
    public final void execute(String[] args) throws Exception {
        Path dir = Paths.get(args[1]);
        switch (args[0]) {
            case "big":
                big(big(dir));
                break;
            case "loggers":
                loggers(loggers(dir));
                break;
            default:
                run(args[0], dir);
        }
    }

    private static void big(HostileInputContract.Run run) throws InterruptedException {
        HostileInputContract.Log log = run.logger("big");
        List<String> figures = HostileInput.logBig(log::info, log::info);
        run.stop();
        figures.forEach(System.out::println);
        System.out.println("heapPeakSum=" + HostileInput.peakHeap());
    }

    private static void loggers(HostileInputContract.Run run) {
        long t0 = System.nanoTime();
        for (int i = 0; i < HostileInput.LOGGERS; i++) {
            run.logToRoot("pkg.sub.N" + i, "main", Integer.toString(i));
        }
        long logged = System.nanoTime() - t0;
        long used = HostileInput.usedAfterGc();
        run.stop();
        System.out.println("loggers=" + HostileInput.LOGGERS);
        System.out.println("logMillis=" + TimeUnit.NANOSECONDS.toMillis(logged));
        System.out.println("usedAfterGcBytes=" + used);
        System.out.println("heapPeakSum=" + HostileInput.peakHeap());
    }
}
