// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2.it;

import io.github.spool.lifecycle.ExitChild;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/** {@link ExitChild} through log4j2 (configuration from {@code -Dlog4j2.configurationFile}). */
public final class ExitMain {
    private ExitMain() {
    }

    /** @param args the mode */
    public static void main(String[] args) {
        ExitChild.run(args[0], () -> {
            Logger logger = LogManager.getLogger("it.Exit");
            return logger::info;
        });
    }
}
