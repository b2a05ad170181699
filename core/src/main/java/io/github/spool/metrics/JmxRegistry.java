package io.github.spool.metrics;

import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Registers one MBean per appender, named {@code io.github.spool:type=Appender,context=<context>,name=<name>}
 * after the logging context and the appender, so that the same-named appenders of two contexts (two
 * web applications, two log4j2 {@code LoggerContext}s) each keep their own bean. During a framework
 * reconfiguration the new appender starts before the old one of the same context and name stops:
 * the newest owns the name, and an old appender's unregistration does not remove its successor's
 * bean. Internal to Spool.
 *
 * <p>Context names repeat: two web applications that leave logback's context unnamed are both
 * {@code default}. The adapters therefore pass the context itself as its identity, and a second
 * live context of the same name gets an id key, {@code ...,name=<name>,id=2} (the lowest id no
 * live context of that name holds), for as long as it has beans; the first keeps the documented
 * form. Only an appender of the same identity replaces a bean, and only its owner removes it, so
 * undeploying one application never touches another's beans. Identities are held weakly (a web
 * application's context must not be pinned by Spool's registry).
 */
public final class JmxRegistry {
    /** The object name's domain. */
    public static final String DOMAIN = "io.github.spool";

    /** Guarded by the class: who registered each name. */
    private static final Map<ObjectName, Registration> OWNERS = new HashMap<>();
    /** Guarded by the class: the live contexts of each context name, with their ids. */
    private static final Map<String, List<Slot>> SLOTS = new HashMap<>();

    private JmxRegistry() {
    }

    /** One live context of a name: its id (1: none shown) and how many beans it has. */
    private static final class Slot {
        /** The context, or {@code null} for registrations that named none. */
        final WeakReference<Object> identity;
        final int id;
        int beans;

        Slot(Object identity, int id) {
            this.identity = identity == null ? null : new WeakReference<>(identity);
            this.id = id;
        }

        boolean isOf(Object context) {
            return context == null ? identity == null : identity != null && identity.get() == context;
        }
    }

    private static final class Registration {
        final Object owner;
        final String context;
        final String appenderName;
        final Slot slot;
        /** What {@link LiveAppenders} announced for it, or {@code null} (a bean without stats). */
        final LiveAppender live;

        Registration(Object owner, String context, String appenderName, Slot slot, LiveAppender live) {
            this.owner = owner;
            this.context = context;
            this.appenderName = appenderName;
            this.slot = slot;
            this.live = live;
        }
    }

    /**
     * @param context      the logging context's name
     * @param appenderName the appender's name
     * @return {@code io.github.spool:type=Appender,context=<context>,name=<name>}, each value quoted
     *         with {@link ObjectName#quote} when it holds a character an unquoted value may not
     * @throws JMException if the names cannot form an object name
     */
    public static ObjectName objectName(String context, String appenderName) throws JMException {
        return objectName(context, appenderName, 1);
    }

    /**
     * @param context      the logging context's name
     * @param appenderName the appender's name
     * @param id           the context's id among live contexts of the same name; {@code 1}: the first
     * @return {@link #objectName(String, String)}, with {@code ,id=<id>} when {@code id > 1}
     * @throws JMException if the names cannot form an object name
     */
    public static ObjectName objectName(String context, String appenderName, int id) throws JMException {
        return new ObjectName(DOMAIN + ":type=Appender,context=" + value(context) + ",name=" + value(appenderName)
                + (id > 1 ? ",id=" + id : ""));
    }

    /**
     * Quotes what an unquoted object name value cannot hold ({@code , = : " * ?}, newlines) and
     * anything but plain name characters, so that names stay readable in the common case.
     */
    private static String value(String s) {
        return !s.isEmpty() && s.matches("[A-Za-z0-9_.\\-]+") ? s : ObjectName.quote(s);
    }

    /**
     * Registers {@code bean}, replacing the bean of the same context and name (a reconfiguration)
     * of a context whose identity is unknown.
     *
     * @param context      the logging context's name
     * @param appenderName the appender's name
     * @param owner        the appender (identity used by {@link #unregister})
     * @param bean         the MBean
     * @throws JMException if JMX refuses
     */
    public static void register(String context, String appenderName, Object owner, SpoolAppenderMXBean bean)
            throws JMException {
        register(null, context, appenderName, owner, bean);
    }

    /**
     * Registers {@code bean} under the id of {@code identity} among the live contexts named
     * {@code context}, replacing a bean of the same context identity and name (a reconfiguration).
     *
     * @param identity     the logging context itself, or {@code null} if unknown (then the name is
     *                     the identity)
     * @param context      the logging context's name
     * @param appenderName the appender's name
     * @param owner        the appender (identity used by {@link #unregister})
     * @param bean         the MBean
     * @throws JMException if JMX refuses
     */
    public static synchronized void register(Object identity, String context, String appenderName, Object owner,
                                             SpoolAppenderMXBean bean) throws JMException {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        Slot slot = slot(identity, context);
        Registration mine = new Registration(owner, context, appenderName, slot, bean instanceof SpoolAppenderStats
                ? new LiveAppender(context, appenderName, slot.id, (SpoolAppenderStats) bean) : null);
        slot.beans++; // before a replaced registration of the same slot is released: keeps the slot
        try {
            ObjectName on = objectName(context, appenderName, slot.id);
            if (server.isRegistered(on)) {
                server.unregisterMBean(on);
            }
            server.registerMBean(bean, on);
            Registration replaced = OWNERS.put(on, mine);
            if (replaced != null) {
                release(replaced); // that appender no longer has a bean here
                if (replaced.live != null) {
                    LiveAppenders.removed(replaced.live); // nor meters: its successor owns the names
                }
            }
            if (mine.live != null) {
                LiveAppenders.added(mine.live);
            }
        } catch (JMException | RuntimeException e) {
            release(mine);
            throw e;
        }
    }

    /**
     * The slot of {@code identity} among the live contexts named {@code context}, made with the
     * lowest free id if it has none. A context collected without stopping its appenders keeps its
     * id while its beans stay registered.
     */
    private static Slot slot(Object identity, String context) {
        List<Slot> slots = SLOTS.computeIfAbsent(context, k -> new ArrayList<>());
        for (Slot s : slots) {
            if (s.isOf(identity)) {
                return s;
            }
        }
        int id = 1;
        for (boolean taken = true; taken; ) {
            taken = false;
            for (Slot s : slots) {
                if (s.id == id) {
                    id++;
                    taken = true;
                }
            }
        }
        Slot s = new Slot(identity, id);
        slots.add(s);
        return s;
    }

    private static void release(Registration r) {
        Slot s = r.slot;
        if (--s.beans <= 0) {
            List<Slot> slots = SLOTS.get(r.context);
            if (slots != null) {
                slots.remove(s);
                if (slots.isEmpty()) {
                    SLOTS.remove(r.context);
                }
            }
        }
    }

    /**
     * Unregisters the bean {@code owner} registered for {@code context} and {@code appenderName},
     * if it still owns it (a successor of the same context may have replaced it).
     *
     * @param context      the logging context's name
     * @param appenderName the appender's name
     * @param owner        the appender that registered it
     * @throws JMException if JMX refuses
     */
    public static synchronized void unregister(String context, String appenderName, Object owner) throws JMException {
        for (Iterator<Map.Entry<ObjectName, Registration>> it = OWNERS.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<ObjectName, Registration> e = it.next();
            Registration r = e.getValue();
            if (r.owner == owner && r.context.equals(context) && r.appenderName.equals(appenderName)) {
                it.remove();
                release(r);
                if (r.live != null) {
                    LiveAppenders.removed(r.live);
                }
                MBeanServer server = ManagementFactory.getPlatformMBeanServer();
                if (server.isRegistered(e.getKey())) {
                    server.unregisterMBean(e.getKey());
                }
                return;
            }
        }
    }
}
