package io.github.spool.time;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/**
 * The clock Spool reads when it needs "now" itself: the log4j2 {@code SpoolClock}, the Undertow
 * time attributes and time-based rolling. Chosen once per JVM by the system property
 * {@value #PROPERTY}:
 * <ul>
 *   <li>{@code auto} (the default): the system clock ({@link System#currentTimeMillis()}, no
 *       thread) when Linux reports a clock source that the kernel reads in user space through the
 *       vDSO ({@link #USER_SPACE_CLOCK_SOURCES}); {@link CachedClock} otherwise (HPET, ACPI PM
 *       timer, Xen, or a clock source this class cannot read);</li>
 *   <li>{@code cached}: always {@link CachedClock};</li>
 *   <li>{@code system}: always the system clock.</li>
 * </ul>
 *
 * <h2>Why not always the cached clock</h2>
 * The cached clock's read is about 0.5 ns against 23 ns for {@code System.currentTimeMillis()} on
 * a TSC clock source, but its refresher wakes 1000 times a second while anybody reads it. On a
 * 2-vCPU KVM guest each wake-up cost its own thread 25–30 µs of CPU (2.5–3% of a core), and on a
 * loopback Undertow server, whose two client connections and I/O thread share those two vCPUs with
 * the refresher, {@code %{spoolTime}} read from the cached clock lost 13–18% of the requests per
 * second that the same attribute read from the system clock did not lose (docs/benchmarks.md,
 * the access log and the clock thread). At 23 ns a read, the refresher pays for itself only above
 * roughly a million reads a second. Where reading the time is a system call (HPET, ACPI PM, Xen:
 * 0.5–2 µs a read), it pays from some thousands of reads a second, which is the case the seed's
 * hutool {@code SystemClock} was written for.
 *
 * <p>Thread-safe; the choice is made on the first {@link #get()} and never changes.
 */
public final class SharedClock {

    /** The system property choosing the clock: {@code auto}, {@code cached} or {@code system}. */
    public static final String PROPERTY = "spool.clock";

    /** Where Linux names the clock source in use. */
    static final Path CLOCK_SOURCE = Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource");

    /**
     * Clock sources with a vDSO read (no system call): x86 {@code tsc}, KVM's {@code kvm-clock}
     * (pvclock), Hyper-V's TSC page and the arm64 architected timer.
     */
    static final Set<String> USER_SPACE_CLOCK_SOURCES =
            Set.of("tsc", "kvm-clock", "hyperv_clocksource_tsc_page", "arch_sys_counter");

    /** Which clock {@link #get()} returns. */
    enum Kind { CACHED, SYSTEM }

    /** {@code System.currentTimeMillis()} as a {@link MillisClock}. */
    private enum SystemMillisClock implements MillisClock {
        INSTANCE;

        @Override
        public long currentTimeMillis() {
            return System.currentTimeMillis();
        }
    }

    /** Lazy holder: the clock source is read, and a refresher started, only on the first {@link #get()}. */
    private static final class Holder {
        static final MillisClock CLOCK =
                choose(System.getProperty(PROPERTY)) == Kind.CACHED ? CachedClock.get() : SystemMillisClock.INSTANCE;
    }

    private SharedClock() {
    }

    /**
     * Returns the JVM's shared clock, starting the cached clock's refresher if it is the one chosen.
     *
     * @return the cached clock or the system clock, as {@value #PROPERTY} chose
     */
    public static MillisClock get() {
        return Holder.CLOCK;
    }

    /**
     * Whether the shared clock is the cached one.
     *
     * @return true for {@link CachedClock}
     */
    public static boolean isCached() {
        return Holder.CLOCK instanceof CachedClock;
    }

    /**
     * How far the shared clock lags the system clock now, for JMX: {@link CachedClock#stalenessMillis()}
     * for the cached clock, 0 for the system clock.
     *
     * @return milliseconds
     */
    public static long stalenessMillis() {
        return Holder.CLOCK instanceof CachedClock c ? c.stalenessMillis() : 0;
    }

    /**
     * The choice for this JVM. A value other than auto, cached or system is reported on standard
     * error and treated as auto: a JVM-wide clock setting is read where no appender can report a
     * configuration error, and a typo must not stop logging.
     */
    private static Kind choose(String setting) {
        final String source = readClockSource(CLOCK_SOURCE);
        final Kind kind = kind(setting, source);
        if (kind != null) {
            return kind;
        }
        System.err.println("spool WARN: " + PROPERTY + " must be auto, cached or system, not '" + setting
                + "'; using auto");
        return kind("auto", source);
    }

    /**
     * The choice, from the property's value and the clock source's name.
     *
     * @param setting     {@value #PROPERTY}, or null when unset
     * @param clockSource Linux's current clock source, or null when unknown
     * @return the clock to use; null for a value other than auto, cached or system
     */
    static Kind kind(String setting, String clockSource) {
        final String s = setting == null ? "auto" : setting.trim().toLowerCase(Locale.ROOT);
        switch (s) {
            case "cached":
                return Kind.CACHED;
            case "system":
                return Kind.SYSTEM;
            case "auto":
            case "":
                return clockSource != null && USER_SPACE_CLOCK_SOURCES.contains(clockSource) ? Kind.SYSTEM : Kind.CACHED;
            default:
                return null;
        }
    }

    /**
     * Reads the clock source's name.
     *
     * @param file {@link #CLOCK_SOURCE}, or another file for tests
     * @return its first line, trimmed; null if it cannot be read (not Linux, no sysfs)
     */
    static String readClockSource(Path file) {
        try {
            final String text = new String(Files.readAllBytes(file), StandardCharsets.US_ASCII).trim();
            return text.isEmpty() ? null : text;
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            return null;
        }
    }
}
