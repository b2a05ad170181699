// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback.it;

import ch.qos.logback.classic.LoggerContext;
import io.github.spool.dropin.FollowChild;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link FollowChild} through SLF4J and logback (configuration from {@code -Dlogback.configurationFile}). */
public final class FollowMain {
    private FollowMain() {
    }

    /**
     * @param args none
     */
    public static void main(String[] args) {
        FollowChild.replaceStdout(); // before logback starts, as a test runner does
        Logger logger = LoggerFactory.getLogger("it.Follow");
        FollowChild.run(logger::info, () -> ((LoggerContext) LoggerFactory.getILoggerFactory()).stop());
    }
}
