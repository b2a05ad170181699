package io.github.spool.soak;


import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Samples, inside the forked soak JVM, what the soak must keep bounded: resident memory
 * ({@code VmRSS} / {@code VmHWM} of {@code /proc/self/status}), the JDK's direct buffer pool
 * ({@link BufferPoolMXBean} "direct": bytes used and buffer count) and the appender's own figures
 * from its MBean {@code io.github.spool:type=Appender,name=<name>} (buffer bytes in use, high
 * water, cap, events discarded). Keeps the maxima; {@link #report} renders them as one
 * {@code key=value} line. Test support (core's test-jar).
 */
public final class MemoryProbe implements Runnable {

    /** Sampling period: short enough to catch a peak that lasts a GC cycle. */
    static final long PERIOD_MILLIS = 50;

    private final String appenderName;
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    private final BufferPoolMXBean direct;
    private final Thread thread;
    private volatile boolean stop;

    // Written by the sampler thread only; read after join().
    private long samples;
    private long rssFirstKiB = -1;
    private long rssMaxKiB;
    private long rssLastKiB;
    private long hwmKiB;
    private long directUsedMax;
    private long directCountMax;
    private long ringInUseMax;
    private long ringHighWater;
    private long ringMax;
    private long beanMissing;

    /**
     * @param appenderName the Spool appender whose MBean to read
     * @throws JMException if the name cannot form an object name
     */
    public MemoryProbe(String appenderName) throws JMException {
        this.appenderName = appenderName;
        BufferPoolMXBean found = null;
        for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (b.getName().equals("direct")) {
                found = b;
            }
        }
        if (found == null) {
            throw new IllegalStateException("no direct buffer pool MXBean");
        }
        this.direct = found;
        this.thread = new Thread(this, "soak-memory-probe");
        thread.setDaemon(true);
    }

    /** Starts sampling on a thread of its own. */
    public void start() {
        thread.start();
    }

    /**
     * Takes one last sample and stops sampling.
     *
     * @throws InterruptedException if interrupted while waiting for the sampler
     */
    public void stop() throws InterruptedException {
        stop = true;
        LockSupport.unpark(thread);
        thread.join();
    }

    @Override
    public void run() {
        while (!stop) {
            sample();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(PERIOD_MILLIS)); // sampling period
        }
        sample();
    }

    private void sample() {
        samples++;
        long[] rss = procStatus();
        if (rssFirstKiB < 0) {
            rssFirstKiB = rss[0];
        }
        rssLastKiB = rss[0];
        rssMaxKiB = Math.max(rssMaxKiB, rss[0]);
        hwmKiB = Math.max(hwmKiB, rss[1]);
        directUsedMax = Math.max(directUsedMax, direct.getMemoryUsed());
        directCountMax = Math.max(directCountMax, direct.getCount());
        try {
            ObjectName appender = bean();
            ringInUseMax = Math.max(ringInUseMax, (Long) server.getAttribute(appender, "BufferBytesInUse"));
            ringHighWater = Math.max(ringHighWater, (Long) server.getAttribute(appender, "BufferBytesHighWater"));
            ringMax = (Long) server.getAttribute(appender, "BufferBytesMax");
        } catch (JMException e) {
            beanMissing++; // before the framework started the appender, or after it stopped
        }
    }

    /** @return VmRSS and VmHWM in KiB */
    private static long[] procStatus() {
        long rss = -1;
        long hwm = -1;
        try {
            for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = kib(line);
                } else if (line.startsWith("VmHWM:")) {
                    hwm = kib(line);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/self/status (Linux only)", e);
        }
        return new long[] {rss, hwm};
    }

    private static long kib(String line) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
    }

    /**
     * Reads the appender's discard count from its MBean now (call while it still runs).
     *
     * @return {@code EventsDiscarded}
     * @throws JMException if the bean is not registered
     */
    public long eventsDiscarded() throws JMException {
        return (Long) server.getAttribute(bean(), "EventsDiscarded");
    }

    /**
     * Whether the producers have outrun the sink: something was discarded, or the ring grew to
     * its cap (it grows by whole cells, so the high water then equals the cap).
     *
     * @return {@code true} once overloaded; {@code false} also while the bean cannot be read
     */
    public boolean overloaded() {
        try {
            ObjectName b = bean();
            return (Long) server.getAttribute(b, "EventsDiscarded") > 0
                    || (Long) server.getAttribute(b, "BufferBytesHighWater") >= (Long) server.getAttribute(b, "BufferBytesMax");
        } catch (JMException e) {
            return false;
        }
    }

    /** The appender's bean, in whatever logging context its framework gave it. */
    private ObjectName bean() throws JMException {
        Set<ObjectName> found = LeakProbe.beansOf(appenderName);
        if (found.size() != 1) {
            throw new InstanceNotFoundException("MBeans of appender '" + appenderName + "': " + found);
        }
        return found.iterator().next();
    }

    /**
     * The maxima as an ordered map; call after {@link #stop()}.
     *
     * @return figure name to value
     */
    public Map<String, Long> figures() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("samples", samples);
        m.put("rssFirstKiB", rssFirstKiB);
        m.put("rssMaxKiB", rssMaxKiB);
        m.put("rssLastKiB", rssLastKiB);
        m.put("hwmKiB", hwmKiB);
        m.put("directUsedMax", directUsedMax);
        m.put("directCountMax", directCountMax);
        m.put("ringInUseMax", ringInUseMax);
        m.put("ringHighWater", ringHighWater);
        m.put("ringMax", ringMax);
        m.put("beanMissing", beanMissing);
        return m;
    }

    /**
     * Renders figures as one line {@code soak-report k=v k=v ...} for the parent to parse.
     *
     * @param figures figure name to value
     * @return the line, without a line separator
     */
    public static String report(Map<String, Long> figures) {
        StringBuilder sb = new StringBuilder(SoakReport.PREFIX);
        figures.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
        return sb.toString();
    }

}
