package io.github.spool.log4j2.it;

import io.github.spool.soak.MemoryLifecycleChild;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;

/** {@link MemoryLifecycleChild} through log4j2, reconfigured with {@link LoggerContext#reconfigure()}. */
public final class MemoryLifecycleMain {
    private MemoryLifecycleMain() {
    }

    /**
     * @param args the mode
     * @throws Exception if the child fails
     */
    public static void main(String[] args) throws Exception {
        MemoryLifecycleChild.baseline();
        Logger logger = LogManager.getLogger("it.MemoryLifecycle");
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        MemoryLifecycleChild.run(args[0], logger::info, context::reconfigure, LogManager::shutdown);
    }
}
