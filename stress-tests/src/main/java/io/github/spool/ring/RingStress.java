package io.github.spool.ring;

import io.github.spool.OverflowPolicy;
import io.github.spool.Severity;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;

/** Helpers shared by the ring's jcstress tests: small rings, patterned records, a full drain. */
final class RingStress {
    /** Two cells of {@link ManyToOneCellRing#MIN_CELL_SIZE}: the smallest ring that works. */
    static final int CELL = ManyToOneCellRing.MIN_CELL_SIZE;

    private RingStress() {
    }

    static ManyToOneCellRing smallRing(OverflowPolicy policy) {
        return new ManyToOneCellRing(2L * CELL, 2L * CELL, policy, Severity.INFO);
    }

    /** A record of {@code len} bytes, every byte {@code tag}. */
    static byte[] record(char tag, int len) {
        byte[] b = new byte[len];
        java.util.Arrays.fill(b, (byte) tag);
        return b;
    }

    /** Collects and releases until nothing is left; returns every byte in write order. */
    static byte[] drain(ManyToOneCellRing ring) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Batch batch = new Batch();
        for (;;) {
            ring.collect(batch);
            if (batch.isEmpty()) {
                return out.toByteArray();
            }
            copyOut(batch, out);
            ring.release(batch);
        }
    }

    static void copyOut(Batch batch, ByteArrayOutputStream out) {
        for (int i = 0; i < batch.count(); i++) {
            ByteBuffer b = batch.segments()[i];
            while (b.hasRemaining()) {
                out.write(b.get());
            }
        }
    }

    /**
     * Checks that {@code out} is {@code prefixLen} bytes of {@code 'P'} followed by the runs
     * given, each exactly once, in any order. Returns 1 if run {@code a} comes first, 2 if
     * {@code b} does, 0 if anything is missing, duplicated or torn.
     */
    static int orderOf(byte[] out, int prefixLen, char a, int aLen, char b, int bLen) {
        if (out.length != prefixLen + aLen + bLen) {
            return 0;
        }
        for (int i = 0; i < prefixLen; i++) {
            if (out[i] != 'P') {
                return 0;
            }
        }
        if (run(out, prefixLen, a, aLen) && run(out, prefixLen + aLen, b, bLen)) {
            return 1;
        }
        if (run(out, prefixLen, b, bLen) && run(out, prefixLen + bLen, a, aLen)) {
            return 2;
        }
        return 0;
    }

    static boolean run(byte[] out, int from, char tag, int len) {
        for (int i = from; i < from + len; i++) {
            if (out[i] != tag) {
                return false;
            }
        }
        return true;
    }
}
