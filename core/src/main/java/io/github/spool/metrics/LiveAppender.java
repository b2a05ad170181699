package io.github.spool.metrics;

/**
 * One running appender as {@link LiveAppenders} announces it: the names its MBean is registered
 * under and its figures. Compared by identity: a reconfiguration's successor of the same names is
 * another appender. Internal to Spool; the Micrometer binder reads it.
 */
public final class LiveAppender {
    private final String context;
    private final String name;
    private final int id;
    private final SpoolAppenderStats stats;

    LiveAppender(String context, String name, int id, SpoolAppenderStats stats) {
        this.context = context;
        this.name = name;
        this.id = id;
        this.stats = stats;
    }

    /** @return the logging context's name */
    public String context() {
        return context;
    }

    /** @return the appender's name */
    public String name() {
        return name;
    }

    /**
     * @return the context's id among the live contexts of the same name: {@code 1} for the first,
     *         as the MBean's {@code id} key ({@link JmxRegistry#objectName(String, String, int)})
     */
    public int id() {
        return id;
    }

    /** @return its counters and buffer figures, the MBean's */
    public SpoolAppenderStats stats() {
        return stats;
    }

    @Override
    public String toString() {
        return context + (id > 1 ? "#" + id : "") + "/" + name;
    }
}
