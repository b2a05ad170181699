package io.github.spool.logback.it;

import ch.qos.logback.classic.LoggerContext;
import io.github.spool.soak.SoakChild;
import io.github.spool.soak.SoakLoad;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The forked JVM of {@link OverloadSoakTest}: logback configured by
 * {@code -Dlogback.configurationFile} with one {@code SpoolAppender} named {@code soak} on standard
 * output; producers log for the given time, then {@code LoggerContext.stop()} drains. Figures go
 * to standard error ({@link SoakChild}).
 */
public final class SoakMain {

    private SoakMain() {
    }

    /**
     * @param args seconds, producers
     * @throws Exception if the soak fails
     */
    public static void main(String[] args) throws Exception {
        double seconds = Double.parseDouble(args[0]);
        int producers = Integer.parseInt(args[1]);
        Logger logger = LoggerFactory.getLogger("soak");
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        LogbackRig.assertRenderMode(context, "soak");
        SoakChild.run("soak", seconds, producers, (p, seq, warn) -> {
            if (warn) {
                logger.warn("soak p={} seq={} {}", p, seq, SoakLoad.PAYLOAD);
            } else {
                logger.info("soak p={} seq={} {}", p, seq, SoakLoad.PAYLOAD);
            }
        }, context::stop);
    }
}
