// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2.it;

import io.github.spool.dropin.FollowChild;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/** {@link FollowChild} through log4j2 (configuration from {@code -Dlog4j2.configurationFile}). */
public final class FollowMain {
    private FollowMain() {
    }

    /**
     * @param args none
     */
    public static void main(String[] args) {
        FollowChild.replaceStdout(); // before log4j2 starts, as a test runner does
        Logger logger = LogManager.getLogger("it.Follow");
        FollowChild.run(logger::info, LogManager::shutdown);
    }
}
