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
 * the seconds-and-nanoseconds path ({@code format(long, int, byte[], int)}, the one precise
 * instants take); {@link TimestampSlotStress} is the same race on the millisecond fast path.
 *
 * <p>Outcomes as in {@link TimestampSlotStress}.
 */
@JCStressTest
@Description("Timestamp cache, nanosecond path: a reader racing a slot rewrite renders its own second exactly, never a mix of two")
@Outcome(id = "0, 0, 2", expect = Expect.ACCEPTABLE, desc = "Both exact, the reader from the shared slot before the rewrite; the slot ends with S2")
@Outcome(id = "0, 3, 0", expect = Expect.ACCEPTABLE, desc = "Both exact, the reader after the rewrite: it found S2, rendered S0 in its own slot and republished it")
@Outcome(id = "0, 3, 2", expect = Expect.ACCEPTABLE_INTERESTING, desc = "Both exact, the reader overlapped the rewrite (slot odd or changed under it): own slot, republish refused")
@Outcome(id = "0, 0, 0", expect = Expect.FORBIDDEN, desc = "The slot ends with S0 although the reader never republished it: the writer's publish was lost")
@Outcome(id = "0, [03], -1", expect = Expect.FORBIDDEN, desc = "Slot left odd (writer never released) or holding a third second")
@Outcome(id = "0, [12], .*", expect = Expect.FORBIDDEN, desc = "The reader rendered the wrong second or a mix of two")
@Outcome(expect = Expect.FORBIDDEN, desc = "The writer rendered the wrong second or a mix of two")
@State
public class TimestampSlotNanosStress {
    static final long S0 = TimestampSlotStress.S0;
    static final long S2 = TimestampSlotStress.S2;
    static final byte[] EXPECTED_S0 = "1999-12-31 23:59:58.111".getBytes(StandardCharsets.US_ASCII);
    static final byte[] EXPECTED_S2 = "2000-01-01 00:00:00.111".getBytes(StandardCharsets.US_ASCII);

    final TimestampFormat format = TimestampFormat.ofPattern(TimestampSlotStress.PATTERN, ZoneOffset.UTC);
    final byte[] writerOut = new byte[format.maxLength()];
    final byte[] readerOut = new byte[format.maxLength()];

    public TimestampSlotNanosStress() {
        format.format(S0 * 1000 + 111, readerOut, 0); // publishes S0 into the shared even slot
        Arrays.fill(readerOut, (byte) 0);
        // Forget the constructing thread's own slot (it may be an actor thread), so that the
        // reader's own slot holds S0 only if the reader itself fell back to it.
        format.ownSlot().epochSecond = Long.MIN_VALUE;
    }

    @Actor
    public void writer(III_Result r) {
        final int n = format.format(S2, 111_222_333, writerOut, 0);
        r.r1 = TimestampSlotStress.classify(writerOut, n, EXPECTED_S2, EXPECTED_S0);
    }

    @Actor
    public void reader(III_Result r) {
        final int n = format.format(S0, 111_222_333, readerOut, 0);
        r.r2 = TimestampSlotStress.readerCode(format, TimestampSlotStress.classify(readerOut, n, EXPECTED_S0, EXPECTED_S2), S0);
    }

    @Arbiter
    public void arbiter(III_Result r) {
        r.r3 = TimestampSlotStress.slotState(format.sharedSlot(S0));
    }
}
