package io.github.spool.logback;

import io.github.spool.text.ByteLineBuilder;

/**
 * A logback message pattern ({@code "Order {} shipped to {}"}) split at its {@code "{}"}
 * placeholders, each piece already encoded, so that {@link DirectMessage} writes a parameterised
 * message as a few array copies and the arguments' digits: no {@code indexOf}, no backslash scan
 * and no UTF-8 encoding of the pattern's text per event. The pieces are exactly the ranges
 * {@link DirectMessage}'s uncached loop hands to {@link Wtf8#append} (the successive
 * {@code indexOf("{}")} of logback's {@code MessageFormatter}), encoded the same way, so the line
 * is byte-for-byte the same.
 *
 * <p>Patterns are cached by identity: call sites log constant strings, so the same {@code String}
 * object comes back. A pattern is compiled only on its second sighting in a row in its slot, so a
 * pattern built per event (a concatenated string) never allocates here: it takes the uncached
 * path every time. The table is a fixed array of 2-way sets; entries are immutable and published
 * by a plain store (a data race that final-field semantics make safe: a reader sees {@code null},
 * an older entry or a complete one), and a lost race only costs a recompilation. Bounded: at most
 * {@value #SETS} x 2 patterns of at most {@value #MAX_LENGTH} chars.
 *
 * <p>Internal to the logback adapter.
 */
final class MessagePattern {

    /** Number of 2-way sets (a power of two). */
    static final int SETS = 1024;
    /** Longer patterns are not cached (they take the uncached path). */
    static final int MAX_LENGTH = 2048;

    private static final String[] CANDIDATES = new String[SETS];
    private static final MessagePattern[] ENTRIES = new MessagePattern[2 * SETS];
    private static final Wtf8.Encoded PLACEHOLDER = Wtf8.encode("{}");

    private final String pattern;
    /** pieces[k]: the text before placeholder k; the last one follows the last placeholder. */
    private final Wtf8.Encoded[] pieces;
    /** A backslash: logback's escape rules apply, which {@link DirectMessage} leaves to logback. */
    private final boolean escapes;

    private MessagePattern(String pattern) {
        this.pattern = pattern;
        this.escapes = pattern.indexOf('\\') >= 0;
        int count = 0;
        for (int j = pattern.indexOf("{}"); j >= 0; j = pattern.indexOf("{}", j + 2)) {
            count++;
        }
        Wtf8.Encoded[] p = new Wtf8.Encoded[count + 1];
        int i = 0;
        for (int k = 0; k < count; k++) {
            int j = pattern.indexOf("{}", i);
            p[k] = Wtf8.encode(pattern.substring(i, j));
            i = j + 2;
        }
        p[count] = Wtf8.encode(pattern.substring(i));
        this.pieces = p;
    }

    /**
     * The compiled form of {@code pattern} if it is cached, else {@code null} (compiling it for the
     * next time if this is its second sighting in a row).
     *
     * @param pattern a message pattern
     * @return the compiled pattern, or {@code null}: use the uncached path
     */
    static MessagePattern lookup(String pattern) {
        int set = System.identityHashCode(pattern) & (SETS - 1);
        int i = set << 1;
        MessagePattern e = ENTRIES[i];
        if (e != null && e.pattern == pattern) {
            return e;
        }
        MessagePattern f = ENTRIES[i + 1];
        if (f != null && f.pattern == pattern) {
            return f;
        }
        if (CANDIDATES[set] != pattern) {
            CANDIDATES[set] = pattern; // first sighting: remember it, allocate nothing
            return null;
        }
        if (pattern.length() > MAX_LENGTH) {
            return null;
        }
        MessagePattern c = new MessagePattern(pattern);
        ENTRIES[i + 1] = e; // the older entry moves to the second way, the oldest is dropped
        ENTRIES[i] = c;
        return c;
    }

    /** @return whether the pattern has a backslash, so logback's escape handling must format it */
    boolean escapes() {
        return escapes;
    }

    /**
     * Writes the message with {@code args} substituted as logback's {@code MessageFormatter} does
     * when the pattern has no backslash: one argument per placeholder in turn, surplus arguments
     * ignored, surplus placeholders printed as {@code "{}"}.
     *
     * @param out      the line
     * @param args     arguments {@link DirectMessage} accepts, or {@code null} with {@code captured}
     * @param captured the writer's event holding the arguments, or {@code null} with {@code args}
     * @param count    the number of arguments
     * @return {@code true} if a lone surrogate was written (see {@link Wtf8})
     */
    boolean write(ByteLineBuilder out, Object[] args, CapturedEvent captured, int count) {
        final Wtf8.Encoded[] p = pieces;
        final int placeholders = p.length - 1;
        final int used = Math.min(count, placeholders);
        boolean lone = false;
        for (int k = 0; k < used; k++) {
            lone |= p[k].appendTo(out);
            lone |= DirectMessage.appendArgument(out, args, captured, k);
        }
        lone |= p[used].appendTo(out);
        for (int k = used + 1; k <= placeholders; k++) {
            PLACEHOLDER.appendTo(out);
            lone |= p[k].appendTo(out);
        }
        return lone;
    }
}
