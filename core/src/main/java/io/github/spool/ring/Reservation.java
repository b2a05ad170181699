package io.github.spool.ring;

import java.lang.ref.PhantomReference;
import java.lang.ref.ReferenceQueue;

/**
 * The bytes one cell counts against the ring's cap, from before the cell exists (a grower
 * reserves, then allocates) until the cell leaves the books. It is made before the books change
 * and is held by whoever answers for the bytes: the grower's local variable, then the cell. If
 * that chain of ownership ever breaks — a failure handler that did not run, a reference lost on a
 * path nobody foresaw — the reservation becomes unreachable while still counted; its
 * {@link Claim} is then enqueued by the GC and the writer takes the bytes back
 * ({@link CellSupply#reclaimLost}), as the JDK frees a direct buffer nobody freed. The cap can
 * shrink only until the next GC, never for good. Internal to Spool.
 */
final class Reservation {
    /** What the books hold for this reservation; its referent is this object. */
    final Claim claim;

    Reservation(long bytes, ReferenceQueue<Reservation> lost) {
        this.claim = new Claim(this, bytes, lost);
    }

    /**
     * The books' side of a reservation. It must not hold the reservation strongly (it is its
     * phantom referent), so the books keep it reachable on their own list until it leaves them.
     * Every field but {@code bytes} is guarded by the books' monitor.
     */
    static final class Claim extends PhantomReference<Reservation> {
        final long bytes;
        /** Whether the bytes are counted now; set when counted, cleared exactly once. */
        boolean counted;
        /** The books' list of claims (CellSupply): what keeps a claim reachable until it is settled. */
        Claim prev;
        Claim next;

        Claim(Reservation referent, long bytes, ReferenceQueue<Reservation> lost) {
            super(referent, lost);
            this.bytes = bytes;
        }
    }
}
