package io.github.spool.metrics;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Registers one MBean per appender name. During a framework reconfiguration the new appender
 * starts before the old one with the same name stops: the newest owns the name, and an old
 * appender's unregistration does not remove its successor's bean. Internal to Spool.
 */
public final class JmxRegistry {
    private static final Map<String, Object> OWNERS = new HashMap<>();

    private JmxRegistry() {
    }

    /**
     * @param appenderName the appender's name
     * @return {@code io.github.spool:type=Appender,name=<name>}, quoted if needed
     * @throws JMException if the name cannot form an object name
     */
    public static ObjectName objectName(String appenderName) throws JMException {
        String value = appenderName.matches("[A-Za-z0-9_.\\-]+") ? appenderName : ObjectName.quote(appenderName);
        return new ObjectName("io.github.spool:type=Appender,name=" + value);
    }

    /**
     * Registers {@code bean}, replacing another appender's bean of the same name.
     *
     * @param appenderName the appender's name
     * @param owner        the appender (identity used by {@link #unregister})
     * @param bean         the MBean
     * @throws JMException if JMX refuses
     */
    public static synchronized void register(String appenderName, Object owner, SpoolAppenderMXBean bean) throws JMException {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName on = objectName(appenderName);
        if (server.isRegistered(on)) {
            server.unregisterMBean(on);
        }
        server.registerMBean(bean, on);
        OWNERS.put(appenderName, owner);
    }

    /**
     * Unregisters the bean of {@code appenderName} if {@code owner} still owns it.
     *
     * @param appenderName the appender's name
     * @param owner        the appender that registered it
     * @throws JMException if JMX refuses
     */
    public static synchronized void unregister(String appenderName, Object owner) throws JMException {
        if (OWNERS.get(appenderName) != owner) {
            return;
        }
        OWNERS.remove(appenderName);
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        ObjectName on = objectName(appenderName);
        if (server.isRegistered(on)) {
            server.unregisterMBean(on);
        }
    }
}
