package io.github.spool.io;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The backlog flag's hysteresis: behind from a big pass, caught up only after a small one. */
class WriterBacklogTest {

    @Test
    void behindFromABigPassUntilASmallOne() {
        WriterBacklog b = new WriterBacklog();
        assertFalse(b.isBehind());
        b.collected(WriterBacklog.BEHIND_BYTES - 1);
        assertFalse(b.isBehind(), "below the mark");
        b.collected(WriterBacklog.BEHIND_BYTES);
        assertTrue(b.isBehind(), "a pass that collected a cell's worth");
        b.collected(WriterBacklog.CAUGHT_UP_BYTES);
        assertTrue(b.isBehind(), "between the marks: still behind");
        b.collected(WriterBacklog.CAUGHT_UP_BYTES - 1);
        assertFalse(b.isBehind(), "caught up");
        b.collected(WriterBacklog.CAUGHT_UP_BYTES * 2);
        assertFalse(b.isBehind(), "between the marks: still caught up");
        b.collected(WriterBacklog.BEHIND_BYTES);
        b.collected(0);
        assertFalse(b.isBehind(), "an idle pass has caught up");
    }
}
