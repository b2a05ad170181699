package io.github.spool.soak;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * What a stopped appender must not leave behind: its writer thread (core names it
 * {@code spool-writer-<appender name>}, see {@code Spool}) and its MBean
 * {@code io.github.spool:type=Appender,context=<context>,name=<name>}. Test support (core's test-jar).
 */
public final class LeakProbe {

    /** Prefix of every writer thread's name. */
    public static final String WRITER_PREFIX = "spool-writer-";

    private LeakProbe() {
    }

    /**
     * @param appenderName an appender's name
     * @return the live writer threads of appenders with that name
     */
    public static List<Thread> writerThreads(String appenderName) {
        List<Thread> found = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && t.getName().equals(WRITER_PREFIX + appenderName)) {
                found.add(t);
            }
        }
        return found;
    }

    /**
     * @param appenderName an appender's name
     * @return the object names of the registered MBeans of appenders with that name, in any context
     */
    public static Set<ObjectName> beansOf(String appenderName) {
        try {
            String value = appenderName.matches("[A-Za-z0-9_.\\-]+") ? appenderName : ObjectName.quote(appenderName);
            return new TreeSet<>(ManagementFactory.getPlatformMBeanServer()
                    .queryNames(new ObjectName("io.github.spool:type=Appender,name=" + value + ",*"), null));
        } catch (MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * @param appenderName an appender's name
     * @return the object name of the one registered MBean of an appender with that name
     * @throws IllegalStateException if there is none, or several (one per context)
     */
    public static ObjectName beanOf(String appenderName) {
        Set<ObjectName> found = beansOf(appenderName);
        if (found.size() != 1) {
            throw new IllegalStateException("expected one MBean of appender '" + appenderName + "', found " + found);
        }
        return found.iterator().next();
    }

    /**
     * @param namePrefix appender names to look for start with this
     * @return names of the registered Spool appender MBeans that start with {@code namePrefix}
     */
    public static Set<String> registeredAppenders(String namePrefix) {
        Set<String> names = new TreeSet<>();
        try {
            for (ObjectName on : ManagementFactory.getPlatformMBeanServer()
                    .queryNames(new ObjectName("io.github.spool:type=Appender,*"), null)) {
                String name = on.getKeyProperty("name");
                if (name.startsWith("\"")) {
                    name = ObjectName.unquote(name);
                }
                if (name.startsWith(namePrefix)) {
                    names.add(name);
                }
            }
        } catch (MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
        return names;
    }
}
