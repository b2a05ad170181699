package io.github.spool.undertow;

/** Renders an instant as the text of a time attribute. Implementations are thread-safe. */
interface TimeText {

    /**
     * @param epochMillis milliseconds since the epoch
     * @return the text
     */
    String format(long epochMillis);

    /** @return whether this renders through core's timestamp cache (else through SimpleDateFormat) */
    boolean cached();
}
