package io.github.spool.bench.e2e;

/** Where a configuration's lines go. */
public enum Output {
    /** To fd 1: the scenario decides whether fd 1 is a file, a pipe or {@code /dev/null}. */
    STDOUT,
    /** To the file named by the {@code bench.file} system property. */
    FILE,
    /** Nowhere, by design (a framework ceiling or the no-logging baseline): nothing to verify. */
    NONE
}
