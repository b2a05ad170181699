package io.github.spool.logback.it;

import ch.qos.logback.classic.LoggerContext;
import io.github.spool.soak.ContainmentChild;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link ContainmentChild} through SLF4J and logback (configuration from {@code -Dlogback.configurationFile}). */
public final class ContainmentMain {
    private ContainmentMain() {
    }

    /**
     * @param args the mode
     * @throws Exception if the child fails
     */
    public static void main(String[] args) throws Exception {
        Logger logger = LoggerFactory.getLogger("it.Containment");
        ContainmentChild.run(args[0], logger::info, () -> ((LoggerContext) LoggerFactory.getILoggerFactory()).stop());
    }
}
