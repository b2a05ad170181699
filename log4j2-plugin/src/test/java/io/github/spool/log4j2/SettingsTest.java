// SPDX-License-Identifier: Apache-2.0
package io.github.spool.log4j2;

import io.github.spool.SpoolConfig;
import io.github.spool.dropin.Configured;
import io.github.spool.dropin.SettingsContract;
import java.util.Map;

/** The settings contract through a real {@code log4j2.xml} and log4j2's StatusLogger. */
class SettingsTest extends SettingsContract {

    @Override
    protected Configured configure(Map<String, String> settings) throws Exception {
        return Log4jConfigured.start(dir, settings);
    }

    @Override
    protected String fileSetting() {
        return "fileName";
    }

    @Override
    protected String targetValue(SpoolConfig.Target target) {
        return target == SpoolConfig.Target.STDOUT ? "SYSTEM_OUT" : "SYSTEM_ERR";
    }
}
