// SPDX-License-Identifier: Apache-2.0
package io.github.spool.undertow.spring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.spool.io.rolling.FilePattern;
import io.github.spool.io.rolling.RollingPolicy;
import java.nio.file.Path;
import java.text.SimpleDateFormat;
import java.time.ZoneId;
import java.util.Date;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code server.undertow.accesslog.rotate}: the archive of a day is named as Undertow 2.3's
 * {@code DefaultAccessLogReceiver} names it ({@code base + yyyy-MM-dd + "." + suffix}, the date
 * formatted by {@code SimpleDateFormat} in the default zone), and the active file is
 * {@code base + suffix}.
 */
class DailyRotationNameTest {

    @ParameterizedTest
    @CsvSource({"access_log., log", "app-, txt", "100%., log"})
    void archivesAreNamedAsUndertowNamesThem(String prefix, String suffix) {
        Path dir = Path.of("/var/log/app");
        RollingPolicy policy = SpoolAccessLogCustomizer.daily(dir, prefix, suffix);
        assertEquals(dir.resolve(prefix + suffix), policy.activeFile());
        FilePattern pattern = FilePattern.parse(policy.filePattern(), ZoneId.systemDefault(), Locale.US);
        SimpleDateFormat undertow = new SimpleDateFormat("yyyy-MM-dd", Locale.US);
        for (long t = 1_700_000_000_000L; t < 1_800_000_000_000L; t += 7_777_777_777L) {
            assertEquals(dir.resolve(prefix + undertow.format(new Date(t)) + "." + suffix).toString(), pattern.format(t, 0));
        }
    }
}
