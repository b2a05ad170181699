package io.github.spool.bench.e2e;

/** What a configuration is in a comparison. */
public enum Role {
    /** The reference the other rows are divided by ({@code System.out.println}, no logging, the per-line writer). */
    BASELINE,
    /** What a user would otherwise pick: the configurations Spool has to beat. */
    ANCHOR,
    /** An upper bound: the framework (or the raw write) with nothing or the least possible behind it. */
    CEILING,
    /** A Spool configuration. */
    SPOOL
}
