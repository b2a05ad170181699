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
 *   <li><b>collect</b> (writer): read {@code committed} <em>first</em>, then {@code claimed}. With
 *       {@code C} committed bytes and {@code K} claimed bytes, {@code C == K} (unsealed) or
 *       {@code C == sealLimit} (sealed) proves every successful claim so far is committed:
 *       committed bytes can only belong to claims made before {@code C} was read, which are all
 *       included in {@code K}, and all claims have positive length. Reading in the other order
 *       would let a later claim's commit stand in for an earlier, unfinished one.</li>
 *   <li><b>install</b>: whoever finds the current cell sealed takes the cell's install flag
 *       (CAS 0 to 1), obtains a fresh cell (pool, else a new allocation while under the byte cap,
 *       else the overflow policy decides), resets it, pre-claims its own record at offset 0,
 *       links {@code sealed.next = fresh}, publishes {@code current = fresh}, then opens the fresh
 *       cell's install flag. The flag of a cell is 0 only while that cell is current and nobody
 *       installs its successor, so at most one installer runs at a time; this also serialises
 *       every consumer of the pool that allocates, and makes the byte cap exact.</li>
 *   <li><b>recycle</b> (writer): a cell is done when sealed, fully committed, fully written and
 *       linked to its successor. Standard cells go back to the pool; dedicated (oversized) cells
 *       are dropped. The reset happens when the cell is taken out of the pool, in this order:
 *       {@code sealLimit = -1}, {@code committed = 0}, then {@code claimed = len} (a CAS). A stale
 *       producer that read the cell as current long ago and claims now either fails (the cell is
 *       still sealed: harmless, failing claims never commit) or succeeds after the reset — a
 *       legitimate claim in the live incarnation, written in chain order.</li>
 * </ul>
 *
 * <h2>Access names</h2>
 * As in JCTools, each atomic access says its ordering in its name: {@code lv} volatile load,
 * {@code la} acquire load, {@code lp} plain load, {@code sv} volatile store, {@code sr} release
 * (ordered) store, {@code sp} plain store, {@code cas} compare-and-set, {@code gaa} get-and-add.
 */
package io.github.spool.ring;
