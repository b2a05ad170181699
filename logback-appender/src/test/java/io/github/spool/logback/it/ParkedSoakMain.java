// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback.it;

import ch.qos.logback.classic.LoggerContext;
import io.github.spool.soak.AdapterSoak;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link AdapterSoak} through SLF4J and logback. */
public final class ParkedSoakMain {
    private ParkedSoakMain() {
    }

    /**
     * @param args see {@link AdapterSoak#run}
     * @throws Exception if the soak fails
     */
    public static void main(String[] args) throws Exception {
        AdapterSoak.run(args, () -> {
            Logger logger = LoggerFactory.getLogger("it.ParkedSoak");
            return logger::info;
        }, () -> ((LoggerContext) LoggerFactory.getILoggerFactory()).stop());
    }
}
