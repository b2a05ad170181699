package io.github.spool.log4j2.it;

import io.github.spool.soak.ContainmentChild;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/** {@link ContainmentChild} through log4j2 (configuration from {@code -Dlog4j2.configurationFile}). */
public final class ContainmentMain {
    private ContainmentMain() {
    }

    /**
     * @param args the mode
     * @throws Exception if the child fails
     */
    public static void main(String[] args) throws Exception {
        Logger logger = LogManager.getLogger("it.Containment");
        ContainmentChild.run(args[0], logger::info, LogManager::shutdown);
    }
}
