package io.github.spool.log4j2.it;

import io.github.spool.soak.SoakChild;
import io.github.spool.soak.SoakLoad;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;

/**
 * The forked JVM of {@link OverloadSoakTest}: log4j2 configured by {@code -Dlog4j2.configurationFile}
 * with one {@code <Spool name="soak">} on standard output; producers log for the given time, then
 * {@code LogManager.shutdown()} drains. Figures go to standard error ({@link SoakChild}).
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
        Logger logger = LogManager.getLogger("soak");
        Log4jRig.assertRenderMode((LoggerContext) LogManager.getContext(false), "soak");
        SoakChild.run("soak", seconds, producers, (p, seq, warn) -> {
            if (warn) {
                logger.warn("soak p={} seq={} {}", p, seq, SoakLoad.PAYLOAD);
            } else {
                logger.info("soak p={} seq={} {}", p, seq, SoakLoad.PAYLOAD);
            }
        }, LogManager::shutdown);
    }
}
