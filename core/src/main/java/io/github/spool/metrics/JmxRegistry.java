package io.github.spool.metrics;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
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
 */
public final class JmxRegistry {
    /** The object name's domain. */
    public static final String DOMAIN = "io.github.spool";

    /** Guarded by the class: which appender registered each name. */
    private static final Map<ObjectName, Object> OWNERS = new HashMap<>();

    private JmxRegistry() {
    }

    /**
     * @param context      the logging context's name
     * @param appenderName the appender's name
     * @return {@code io.github.spool:type=Appender,context=<context>,name=<name>}, each value quoted
     *         with {@link ObjectName#quote} when it holds a character an unquoted value may not
     * @throws JMException if the names cannot form an object name
     */
    public static ObjectName objectName(String context, String appenderName) throws JMException {
        return new ObjectName(DOMAIN + ":type=Appender,context=" + value(context) + ",name=" + value(appenderName));
    }

    /**
     * Quotes what an unquoted object name value cannot hold ({@code , = : " * ?}, newlines) and
     * anything but plain name characters, so that names stay readable in the common case.
     */
    private static String value(String s) {
        return !s.isEmpty() && s.matches("[A-Za-z0-9_.\\-]+") ? s : ObjectName.quote(s);
    }

    /**
     * Registers {@code bean}, replacing another appender's bean of the same context and name.
     *
     * @param context      the logging context's name
     * @param appenderName the appender's name
     * @param owner        the appender (identity used by {@link #unregister})
     * @param bean         the MBean
     * @throws JMException if JMX refuses
     */
    public static synchronized void register(String context, String appenderName, Object owner, SpoolAppenderMXBean bean)
            throws JMException {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName on = objectName(context, appenderName);
        if (server.isRegistered(on)) {
            server.unregisterMBean(on);
        }
        server.registerMBean(bean, on);
        OWNERS.put(on, owner);
    }

    /**
     * Unregisters the bean of {@code context} and {@code appenderName} if {@code owner} still owns it.
     *
     * @param context      the logging context's name
     * @param appenderName the appender's name
     * @param owner        the appender that registered it
     * @throws JMException if JMX refuses
     */
    public static synchronized void unregister(String context, String appenderName, Object owner) throws JMException {
        ObjectName on = objectName(context, appenderName);
        if (OWNERS.get(on) != owner) {
            return;
        }
        OWNERS.remove(on);
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        if (server.isRegistered(on)) {
            server.unregisterMBean(on);
        }
    }
}
