/**
 * The many-to-one ring of byte cells: producers claim, copy and commit; one consumer (the writer
 * thread) collects committed bytes in order, and recycles cells. Public for the writer in
 * {@code io.github.spool.io}; internal to Spool — not an API for applications.
 *
 * <h2>Shape</h2>
 * <pre>
 *   producers ──claim/copy/commit──▶ current cell
 *                                       ▲  next links, in write order
 *   writer ──collect──▶ oldest cell ─▶ … ─┘        free cells: pool (LIFO), recycled by the writer
 * </pre>
 * <h2>Classes</h2>
 * {@code ManyToOneCellRing} holds the producers' fast path (claim, copy, commit) and the ring's
 * public face; the rest of the protocol is one concern per class, each with its ordering argument
 * beside the code: {@code CellInstaller} (a producer's slow path, once per cell: install the
 * successor, grow, wait or discard), {@code CellSupply} (the pool, the books that hold the ring
 * to its cap, growth and trimming, the cells failed producers left), {@code RingConsumer} (the
 * writer's side: collect, release, stall recovery, close). Smaller still, one concern each:
 * {@link io.github.spool.ring.Cell} (one
 * cell's words and their accessors), {@code CellPool} (the free cells), {@code Waiter} (one
 * producer's wait at the cap), {@code ParkingLot} (the parked producers and who wakes them),
 * {@code StallWatch} (the writer's watch for a producer that failed half-way),
 * {@link io.github.spool.ring.WakeSignal} (the writer's sleep and wake-up),
 * {@link io.github.spool.ring.Batch} (what one collect hands the writer),
 * {@link io.github.spool.ring.DirectMemory} (allocating and freeing cell memory).
 *
 * A cell is a direct {@link java.nio.ByteBuffer} holding whole records back to back, exactly the
 * bytes that go to the sink (no headers, so one cell is one {@code write(2)}). Cells form a singly
 * linked chain in write order. RingLog's circular list is replaced by "chain + pool", so that
 * growth and shrinking never modify a link a producer may be reading.
 *
 * <h2>Per-cell protocol (one incarnation of a cell, between two recycles)</h2>
 * <ul>
 *   <li><b>claim</b>: {@code start = getAndAdd(claimed, len)}. If {@code start + len <= capacity}
 *       the producer owns {@code [start, start+len)}. Otherwise the claim failed and takes no
 *       bytes; exactly one failing claim has {@code start <= capacity} — the <em>crosser</em> — and
 *       it publishes {@code sealLimit = start}: the cell is sealed and holds {@code [0, sealLimit)}.
 *       Failing claims never commit, so a stale producer that adds to a recycled cell's
 *       {@code claimed} harms nothing (see below).</li>
 *   <li><b>commit</b>: after copying, {@code getAndAdd(committed, len << 24 | 1)}: committed bytes
 *       in the high 40 bits, committed records in the low 24. Its release half publishes the
 *       copied bytes to the writer; its full fence orders it before the read of the writer's sleep
 *       flag (no lost wake-up).</li>
 *   <li><b>collect</b> (writer): read {@code committed} and {@code abortedBytes} <em>first</em>,
 *       then {@code claimed}. With {@code C} committed plus aborted bytes and {@code K} claimed
 *       bytes, {@code C == K} (unsealed) or {@code C == sealLimit} (sealed) proves every
 *       successful claim so far is complete: committed or aborted bytes can only belong to claims
 *       made before they were read, which are all included in {@code K}, and all claims have
 *       positive length. Reading in the other order would let a later claim's commit stand in for
 *       an earlier, unfinished one.</li>
 *   <li><b>abort</b>: a producer whose copy (or commit) throws records its range as a hole under
 *       the cell's monitor and adds its length to {@code abortedBytes} (a volatile store after its
 *       claim) — with no method call, because a {@code StackOverflowError} may be what it is
 *       handling. The writer moves the bytes after each hole down over it.</li>
 *   <li><b>install</b>: whoever finds the current cell sealed takes the cell's install flag
 *       (CAS {@code null} to its own thread), takes a fresh cell from the pool (when the pool is
 *       empty it releases the flag, reserves the bytes under the cap in the ring's books and
 *       allocates, then tries again), resets it, pre-claims its own record at offset 0, links
 *       {@code sealed.next = fresh} by a CAS from {@code null}, publishes {@code current = fresh},
 *       opens the fresh cell's flag, and leaves the sealed cell's flag taken for good by a
 *       sentinel. The flag of a cell is {@code null} only while that cell is current and nobody
 *       installs its successor, so at most one installer runs at a time; it names its holder so
 *       that a failure handler can tell whether it is still its own to release. The crosser takes the flag right
 *       after its seal, in the compiled claim path, and re-checks the incarnation as any
 *       installer does (a crosser delayed past a recycle may find the cell current again). The
 *       installer that takes the last pooled cell wakes the writer, even from its nap. The link is a CAS because the writer
 *       links a successor itself when an installer holding the flag goes silent past the stall
 *       bound; the loser of that CAS gives its cell up.</li>
 *   <li><b>recycle</b> (writer): a cell is done when sealed, fully committed, fully written and
 *       linked to its successor. Standard cells go back to the pool; dedicated (oversized) cells
 *       are dropped. The reset happens when the cell is taken out of the pool, in this order:
 *       {@code sealLimit = -1}, {@code committed = 0}, then {@code claimed = len} (a CAS). A stale
 *       producer that read the cell as current long ago and claims now either fails (the cell is
 *       still sealed: harmless, failing claims never commit) or succeeds after the reset — a
 *       legitimate claim in the live incarnation, written in chain order.</li>
 * </ul>
 *
 * <h2>Close</h2>
 * Close is a cut: {@code closed} is written once (volatile store) and every append reads it
 * (volatile load) before it claims. Volatile accesses are totally ordered, consistently with each
 * thread's program order, and the variable goes from false to true only, so once a thread has read
 * true every later read by it returns true: a producer told {@code CLOSED} is never told
 * {@code ACCEPTED} again. No Dekker is needed for that; the one that keeps the cut lossless is
 * between claims: the writer's closing claim on the current cell (after close, holding that
 * cell's install flag for good) and every producer's claim are get-and-adds on the same word, so
 * each producer claim either comes first — and is drained — or fails, and the producer then finds
 * {@code closed} in the slow path.
 *
 * <h2>Waiting at the cap</h2>
 * A producer that finds no cell to claim in registers in a queue (at most once per wait) and
 * parks until woken; it does not poll. Wakers make their change first — a cell pooled or grown
 * (volatile store of the pool's size, or of the books), {@code current} moved, {@code closed}
 * set — then read the queue; the producer registers first (a volatile CAS), then re-reads those
 * fields before it parks: Dekker, so a wake-up is never lost. The writer wakes as many waiters as
 * the freed bytes can serve, in a tree (each woken producer wakes up to two more while the budget
 * lasts), so it pays two {@code unpark}s per release.
 *
 * <h2>Failure containment</h2>
 * A producer can fail anywhere (docs/design.md, "Failure containment"). Where it holds something
 * shared its exception handler undoes it with bytecodes only: the install flag if it still names
 * this thread and the cell has no successor (whether or not the CAS that took it, or the call
 * that followed, completed before the throw); a reservation under the cap until the cell exists
 * (the books are a monitor, so a reservation's outcome is never ambiguous); a cell taken from the
 * pool or allocated and not yet linked (pushed on the orphan list, which the writer settles).
 * Taking a cell out of the books is idempotent (its {@code Reservation}'s claim). Behind the
 * handlers, a backstop: each counted reservation has a phantom reference on the books' list, and
 * one that becomes unreachable while still counted (a path the handlers missed) is taken out of
 * the books by the writer after the next GC, so the cap never shrinks for good. Whatever is left
 * stuck, the writer recovers after a bound
 * ({@link io.github.spool.ring.ManyToOneCellRing#recoverStall}). Giving a cell up sets
 * {@code Cell.DEAD} in {@code committed} by CAS: records committed before it are counted lost by
 * the setter, records committed after it by their producers (the get-and-add returns the bit),
 * so each is counted once.
 *
 * <h2>Access names</h2>
 * As in JCTools, each atomic access says its ordering in its name: {@code lv} volatile load,
 * {@code la} acquire load, {@code lp} plain load, {@code sv} volatile store, {@code sr} release
 * (ordered) store, {@code sp} plain store, {@code cas} compare-and-set, {@code gaa} get-and-add.
 */
package io.github.spool.ring;
