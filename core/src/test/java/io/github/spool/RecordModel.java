package io.github.spool;

import java.util.zip.CRC32;

/**
 * Deterministic test records: producer {@code p}'s record number {@code seq} has a length and
 * content computed from (seed, p, seq), so a verifier can re-create what it expects at any
 * position of the output. Byte 0 tags the producer; records of six bytes or more end with the
 * CRC32 of the bytes before it.
 */
final class RecordModel {
    private final long seed;
    private final int maxLarge;

    RecordModel(long seed, int maxLarge) {
        this.seed = seed;
        this.maxLarge = maxLarge;
    }

    static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }

    private long hash(int producer, int seq) {
        return mix(seed * 0x9E3779B97F4A7C15L + ((long) producer << 32) + seq);
    }

    /** Mostly 1..200 bytes; one record in 200 is 1..maxLarge bytes. */
    int length(int producer, int seq) {
        long h = hash(producer, seq);
        int r = (int) ((h >>> 1) % 200);
        if (r == 0) {
            return 1 + (int) ((h >>> 20) % maxLarge);
        }
        return 1 + (int) ((h >>> 20) % 200);
    }

    static byte tag(int producer) {
        return (byte) ('A' + producer);
    }

    /** Writes the record into {@code dst[0, length)} and returns its length. */
    int fill(int producer, int seq, byte[] dst) {
        int len = length(producer, seq);
        long h = hash(producer, seq);
        dst[0] = tag(producer);
        int body = len >= 6 ? len - 4 : len;
        for (int j = 1; j < body; j++) {
            dst[j] = (byte) (h >>> ((j & 7) * 8) ^ j);
        }
        if (len >= 6) {
            CRC32 crc = new CRC32();
            crc.update(dst, 0, body);
            int c = (int) crc.getValue();
            dst[body] = (byte) (c >>> 24);
            dst[body + 1] = (byte) (c >>> 16);
            dst[body + 2] = (byte) (c >>> 8);
            dst[body + 3] = (byte) c;
        }
        return len;
    }

    /**
     * Parses {@code out} as an interleaving of the producers' record sequences; fails with the
     * offset of the first torn, foreign, reordered or missing record.
     *
     * @return records per producer found
     */
    int[] verify(byte[] out, int producers, int perProducer) {
        int[] next = new int[producers];
        byte[] expect = new byte[maxLarge + 256];
        int pos = 0;
        while (pos < out.length) {
            int p = out[pos] - 'A';
            if (p < 0 || p >= producers) {
                throw new AssertionError("seed " + seed + ": byte " + pos + " is not a record start (" + out[pos] + ")");
            }
            if (next[p] >= perProducer) {
                throw new AssertionError("seed " + seed + ": producer " + p + " has more than " + perProducer + " records at byte " + pos);
            }
            int len = fill(p, next[p], expect);
            if (pos + len > out.length) {
                throw new AssertionError("seed " + seed + ": record " + p + "/" + next[p] + " truncated at byte " + pos);
            }
            for (int j = 0; j < len; j++) {
                if (out[pos + j] != expect[j]) {
                    throw new AssertionError("seed " + seed + ": record " + p + "/" + next[p] + " (" + len
                            + " bytes) at byte " + pos + " differs at +" + j);
                }
            }
            pos += len;
            next[p]++;
        }
        return next;
    }
}
