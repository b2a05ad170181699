package io.github.spool.io;

import io.github.spool.Severity;
import io.github.spool.StatusListener;
import io.github.spool.jfr.DiscardEvent;
import io.github.spool.jfr.StallRecoveryEvent;
import io.github.spool.ring.ManyToOneCellRing;

import java.time.Instant;

/**
 * What the writer says about records that were not written: the discard summary line in the
 * stream (records the ring discarded at or below the threshold), render failures and stall
 * recoveries in the status, each with its JFR event, at most once a second each. Writer thread
 * only. Internal to Spool.
 */
final class LossReports {
    private final RingWriter w;
    private final ManyToOneCellRing ring;
    private final BatchWriter writes;
    private final String name;
    private final int discardThreshold;
    /** Render failures that lost records and are not reported yet, and their records (writer only). */
    private long renderEpisodesPending;
    private long renderLostPending;
    private Throwable renderFailurePending;
    /** When render failures were last reported ({@link System#nanoTime()}); at most one report a second. */
    private long renderReportedNanos;
    private boolean renderReportedOnce;
    private final long[] reportedDiscards = new long[Severity.COUNT];
    private long lastSummaryNanos;
    private long lastSummaryMillis;
    private long reportedStallRecoveries;

    LossReports(RingWriter w, ManyToOneCellRing ring, BatchWriter writes, String name, int discardThreshold) {
        this.w = w;
        this.ring = ring;
        this.writes = writes;
        this.name = name;
        this.discardThreshold = discardThreshold;
        this.lastSummaryNanos = System.nanoTime();
        this.lastSummaryMillis = System.currentTimeMillis();
    }

    /** A range the renderer failed on twice: its {@code lost} records are counted, reported within about a second. */
    void renderFailed(long lost, Throwable cause) {
        renderEpisodesPending++;
        renderLostPending += lost;
        renderFailurePending = cause;
        reportRenderFailures(false);
    }

    /**
     * Reports the render failures that lost records since the last report: each episode is
     * counted, and reported within about a second (the writer's housekeeping calls this) or when
     * the writer ends, in one message a second at most, so that a renderer failing on every batch
     * cannot flood the status listener.
     */
    private void reportRenderFailures(boolean force) {
        long episodes = renderEpisodesPending;
        if (episodes == 0) {
            return;
        }
        long now = System.nanoTime();
        if (!force && renderReportedOnce && now - renderReportedNanos < RingWriter.SUMMARY_INTERVAL_NANOS) {
            return;
        }
        renderReportedOnce = true;
        renderReportedNanos = now;
        long lost = renderLostPending;
        Throwable cause = renderFailurePending;
        renderEpisodesPending = 0;
        renderLostPending = 0;
        renderFailurePending = null;
        w.report(StatusListener.Level.ERROR, "rendering records failed " + episodes + (episodes == 1 ? " time" : " times")
                + " (each range rendered twice); " + lost + " records counted as lost", cause);
    }

    /** Writes one summary line into the stream when records were discarded since the last one. */
    void reportDiscards(boolean force) {
        reportRenderFailures(force);
        long now = System.nanoTime();
        if (!force && now - lastSummaryNanos < RingWriter.SUMMARY_INTERVAL_NANOS) {
            return;
        }
        long total = 0;
        StringBuilder detail = null;
        for (int s = Severity.COUNT - 1; s >= 0; s--) {
            long d = ring.discarded(s) - reportedDiscards[s];
            if (d != 0) {
                total += d;
                reportedDiscards[s] += d;
                detail = (detail == null ? new StringBuilder() : detail.append(", ")).append(Severity.name(s)).append('=').append(d);
            }
        }
        lastSummaryNanos = now;
        long sinceMillis = lastSummaryMillis;
        lastSummaryMillis = System.currentTimeMillis();
        if (total == 0) {
            return;
        }
        DiscardEvent event = new DiscardEvent(); // once per summary at most
        if (event.shouldCommit()) {
            event.appender = name;
            event.discarded = total;
            event.threshold = Severity.name(discardThreshold);
            event.byLevel = detail.toString();
            event.commit();
        }
        writes.writeSummaryLine("spool: discarded " + total + " events at " + Severity.name(discardThreshold) + " and below ("
                + detail + ") since " + Instant.ofEpochMilli(sinceMillis) + System.lineSeparator());
    }

    /** Says in the status, and in a JFR event, that the writer recovered from stalled or failed producers since the last report. */
    void reportStall() {
        long n = ring.stallRecoveries();
        if (n != reportedStallRecoveries) {
            reportedStallRecoveries = n;
            StallRecoveryEvent event = new StallRecoveryEvent();
            if (event.shouldCommit()) {
                event.appender = name;
                event.recoveries = n;
                event.stuck = ring.lastStallRecovery();
                event.lostSoFar = ring.lostRecords();
                event.commit();
            }
            w.report(StatusListener.Level.ERROR, "a logging call failed half-way through appending (or stalled past "
                    + "the bound: " + ring.lastStallRecovery() + "); the writer recovered, " + ring.lostRecords()
                    + " records lost so far", null);
        }
    }
}
