// SPDX-License-Identifier: Apache-2.0
package io.github.spool.io.rolling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.spool.Severity;
import io.github.spool.Spool;
import io.github.spool.SpoolConfig;
import io.github.spool.io.EventRecordRenderer;
import io.github.spool.text.ByteLineBuilder;
import io.github.spool.text.RecordCodec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Events of several lines (a message and a stack trace) through the ring and the writer into a
 * file rolling by size, many events per batch: each file holds whole events, split exactly where
 * the frameworks' appenders split them — they check the size before each event, so the event
 * during which the file reaches the limit (logback) or passes it (log4j2) stays whole and the next
 * one starts the next file. Both ways records reach the writer: text from the caller (framed for
 * the sink, {@code FramedText}) and records the writer renders.
 */
class RollingEventBoundaryTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "render on writer={0}, log4j2 rule={1}")
    @CsvSource({"false, false", "false, true", "true, false", "true, true"})
    void aSizeRolloverFallsBetweenTwoEvents(boolean renderOnWriter, boolean rollAboveMax) throws Exception {
        int limit = 4096;
        RollingPolicy policy = RollingPolicy.builder(dir.resolve("app.%i.log").toString())
                .activeFile(dir.resolve("app.log")).maxFileSize(limit, rollAboveMax)
                .indexing(RollingPolicy.Indexing.NEWEST_LOWEST, 1, 200).build();
        SpoolConfig.Builder config = SpoolConfig.builder("event-boundary").rolling(policy).bufferSize(1 << 20);
        if (renderOnWriter) {
            config.renderer(new TextOnly());
        }
        List<String> events = events(600, renderOnWriter ? 7 : 11);
        Spool spool = Spool.start(config.build());
        for (String e : events) {
            byte[] bytes = e.getBytes(StandardCharsets.UTF_8);
            if (renderOnWriter) {
                ByteLineBuilder framed = RecordCodec.textRecord(bytes);
                spool.append(framed.array(), 0, framed.length(), Severity.INFO);
            } else {
                spool.append(bytes, 0, bytes.length, Severity.INFO);
            }
        }
        assertTrue(spool.stop(30, TimeUnit.SECONDS));

        // The frameworks' split: an event goes into the file when the file is below the limit
        // (logback: size < max; log4j2: size <= max) before it.
        long rollAt = rollAboveMax ? limit + 1 : limit;
        List<String> expected = new ArrayList<>();
        StringBuilder file = new StringBuilder();
        for (String e : events) {
            if (file.length() >= rollAt) {
                expected.add(0, file.toString()); // the newest archive takes the lowest index
                file.setLength(0);
            }
            file.append(e);
        }
        List<String> actual = new ArrayList<>();
        for (int i = 1; Files.exists(dir.resolve("app." + i + ".log")); i++) {
            actual.add(Files.readString(dir.resolve("app." + i + ".log")));
        }
        assertTrue(expected.size() > 20, "rolled " + expected.size() + " times");
        assertEquals(expected.size(), actual.size(), "archives");
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), "app." + (i + 1) + ".log");
        }
        assertEquals(file.toString(), Files.readString(dir.resolve("app.log")));
    }

    /** Seeded events of 1 to 12 lines, like a message followed by a stack trace. */
    private static List<String> events(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<String> events = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            StringBuilder b = new StringBuilder("event ").append(i).append(' ').append("x".repeat(random.nextInt(5, 80))).append('\n');
            int frames = random.nextInt(0, 12);
            for (int f = 0; f < frames; f++) {
                b.append("\tat com.example.Frame").append(f).append(".call(Frame.java:").append(random.nextInt(1, 999)).append(")\n");
            }
            events.add(b.toString());
        }
        return events;
    }

    /** A writer-side renderer for rings of text records only, as an adapter's capture would frame them. */
    private static final class TextOnly extends EventRecordRenderer {
        @Override
        protected boolean renderEvent(ByteBuffer in, ByteLineBuilder out) {
            throw new IllegalStateException("text records only");
        }
    }
}
