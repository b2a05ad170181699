package io.github.spool.log4j2.it;

import io.github.spool.soak.FaultRun;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * {@link FaultRun} through log4j2's API into the {@code <Spool name="out">} appender: the program
 * {@link FaultInjectionTest} runs in a forked JVM.
 */
public final class FaultMain {

    private FaultMain() {
    }

    /**
     * @param args see {@link FaultRun}
     * @throws Exception if the run fails
     */
    public static void main(String[] args) throws Exception {
        FaultRun.run(args, () -> {
            Logger logger = LogManager.getLogger("io.github.spool.it.Fault");
            return new FaultRun.Framework() {
                @Override
                public void info(int seq) {
                    logger.info("seq={} {}", seq, FaultRun.PAYLOAD);
                }

                @Override
                public void stop() {
                    LogManager.shutdown();
                }
            };
        });
    }
}
