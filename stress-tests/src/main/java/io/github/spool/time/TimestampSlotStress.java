package io.github.spool.time;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.Arrays;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The timestamp cache's slot sequence lock: the shared even-second slot holds S0 =
 * 1999-12-31 23:59:58; a writer formats S2 = 2000-01-01 00:00:00 (same parity, so it rewrites
 * that slot in place: CAS to odd, copy, release store to even) while a reader formats S0 through
 * the millisecond fast path ({@code format(long, byte[], int)}). The two seconds' renderings
 * differ in 17 of their 19 date-time characters, so a reader that copied part of each would show.
 *
 * <p>r1: the writer's output: 0 = exactly the expected rendering, 1 = the other second's
 * rendering, 2 = anything else (a mix). r2: the reader's output, the same codes, except that an
 * exact rendering is 0 when it came from the shared slot and 3 when the reader fell back to its
 * own slot (it found the shared one holding S2, being rewritten, or changed under its copy).
 * r3: the second the shared slot holds at the end: 0 = S0, 2 = S2, -1 = another second or a
 * writer still inside (odd version). A reader that falls back offers S0 to the shared slot; the
 * offer is refused only if the slot was being rewritten or changed since the reader loaded its
 * version, so {@code 0, 3, 2} counts the runs in which the reader really overlapped the rewrite.
 */
@JCStressTest
@Description("Timestamp cache: a reader racing a slot rewrite renders its own second exactly, never a mix of two")
@Outcome(id = "0, 0, 2", expect = Expect.ACCEPTABLE, desc = "Both exact, the reader from the shared slot before the rewrite; the slot ends with S2")
@Outcome(id = "0, 3, 0", expect = Expect.ACCEPTABLE, desc = "Both exact, the reader after the rewrite: it found S2, rendered S0 in its own slot and republished it")
@Outcome(id = "0, 3, 2", expect = Expect.ACCEPTABLE_INTERESTING, desc = "Both exact, the reader overlapped the rewrite (slot odd or changed under it): own slot, republish refused")
@Outcome(id = "0, 0, 0", expect = Expect.FORBIDDEN, desc = "The slot ends with S0 although the reader never republished it: the writer's publish was lost")
@Outcome(id = "0, [03], -1", expect = Expect.FORBIDDEN, desc = "Slot left odd (writer never released) or holding a third second")
@Outcome(id = "0, [12], .*", expect = Expect.FORBIDDEN, desc = "The reader rendered the wrong second or a mix of two")
@Outcome(expect = Expect.FORBIDDEN, desc = "The writer rendered the wrong second or a mix of two")
@State
public class TimestampSlotStress {
    static final String PATTERN = "yyyy-MM-dd HH:mm:ss.SSS";
    static final long S0 = 946_684_798L; // 1999-12-31T23:59:58Z, even
    static final long S2 = S0 + 2; // 2000-01-01T00:00:00Z, even: the same shared slot
    static final byte[] EXPECTED_S0 = "1999-12-31 23:59:58.111".getBytes(StandardCharsets.US_ASCII);
    static final byte[] EXPECTED_S2 = "2000-01-01 00:00:00.111".getBytes(StandardCharsets.US_ASCII);

    final TimestampFormat format = TimestampFormat.ofPattern(PATTERN, ZoneOffset.UTC);
    final byte[] writerOut = new byte[format.maxLength()];
    final byte[] readerOut = new byte[format.maxLength()];

    public TimestampSlotStress() {
        format.format(S0 * 1000 + 111, readerOut, 0); // publishes S0 into the shared even slot
        Arrays.fill(readerOut, (byte) 0);
        // Forget the constructing thread's own slot (it may be an actor thread), so that the
        // reader's own slot holds S0 only if the reader itself fell back to it.
        format.ownSlot().epochSecond = Long.MIN_VALUE;
    }

    @Actor
    public void writer(III_Result r) {
        final int n = format.format(S2 * 1000 + 111, writerOut, 0);
        r.r1 = classify(writerOut, n, EXPECTED_S2, EXPECTED_S0);
    }

    @Actor
    public void reader(III_Result r) {
        final int n = format.format(S0 * 1000 + 111, readerOut, 0);
        r.r2 = readerCode(format, classify(readerOut, n, EXPECTED_S0, EXPECTED_S2), S0);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = slotState(format.sharedSlot(S0));
    }

    static int classify(byte[] out, int n, byte[] expected, byte[] other) {
        if (Arrays.equals(out, 0, n, expected, 0, expected.length)) {
            return 0;
        }
        return Arrays.equals(out, 0, n, other, 0, other.length) ? 1 : 2;
    }

    /** An exact reader rendering is 3 if the reader's own slot was used (it holds the second). */
    static int readerCode(TimestampFormat format, int code, long second) {
        return code == 0 && format.ownSlot().epochSecond == second ? 3 : code;
    }

    static int slotState(SecondSlot slot) {
        if ((slot.lvVersion() & 1) != 0) {
            return -1;
        }
        if (slot.epochSecond == S0) {
            return 0;
        }
        return slot.epochSecond == S2 ? 2 : -1;
    }
}
