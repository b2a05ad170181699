// SPDX-License-Identifier: Apache-2.0
package io.github.spool.logback;

import ch.qos.logback.classic.spi.ILoggingEvent;
import io.github.spool.OwnedThreadLocal;
import io.github.spool.text.ByteLineBuilder;
import java.util.Arrays;
import java.util.function.BiConsumer;

/**
 * An encoder's {@code encode(event)}: its line built in a per-thread builder it owns, returned as a
 * new array. One per encoder ({@link SpoolEncoder}, {@link SpoolJsonEncoder}); thread-safe.
 */
final class LineArrays {

    /** Builder capacity kept between events; a huge line's array is dropped after it. */
    private static final int RETAINED = 512;

    /** A thread's builder, and whether an encode is under way on it. */
    private static final class Scratch {
        final ByteLineBuilder line = new ByteLineBuilder(RETAINED, 64 * 1024);
        boolean busy;
    }

    /** Owned by the encoder, not the thread: no Spool object is left in a pool thread. */
    private final OwnedThreadLocal<Scratch> scratch = OwnedThreadLocal.withInitial(Scratch::new);
    private final BiConsumer<ILoggingEvent, ByteLineBuilder> encodeTo;

    /** @param encodeTo appends an event's line to a builder (the encoder's {@code encodeTo}) */
    LineArrays(BiConsumer<ILoggingEvent, ByteLineBuilder> encodeTo) {
        this.encodeTo = encodeTo;
    }

    /**
     * @param event the event
     * @return its line in a new array
     */
    byte[] encode(ILoggingEvent event) {
        Scratch sc = scratch.acquire();
        if (sc.busy) {
            // re-entered from a toString() that logs while this thread encodes: own builder
            ByteLineBuilder own = new ByteLineBuilder(RETAINED);
            encodeTo.accept(event, own);
            return Arrays.copyOf(own.array(), own.length());
        }
        sc.busy = true;
        try {
            ByteLineBuilder b = sc.line;
            b.reset();
            encodeTo.accept(event, b);
            return Arrays.copyOf(b.array(), b.length());
        } finally {
            sc.line.reset(); // drops a huge line's array now rather than at this thread's next event
            sc.busy = false;
            scratch.release(sc);
        }
    }
}
