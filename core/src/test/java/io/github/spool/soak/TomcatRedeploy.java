// SPDX-License-Identifier: Apache-2.0
package io.github.spool.soak;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.startup.Tomcat;

/**
 * A real container for the adapters' redeploy tests, run as the main class of a forked JVM whose
 * class path holds only Tomcat and this test-jar: starts an embedded Tomcat, deploys a web
 * application directory (whose {@code WEB-INF/lib} brings the logging framework and Spool),
 * requests one URL of it, undeploys it, and repeats. Tomcat's own leak detection is what reports:
 * its warnings at undeploy ({@code clearReferences*}: threads, thread-locals, ...) are printed as
 * {@code tomcat-warning: ...} lines, and after the last cycle the manager's "find leaks"
 * ({@link StandardHost#findReloadedContextMemoryLeaks()}, which collects garbage first) as one
 * {@code findleaks: [...]} line, retried for up to 10 s. Test support (core's test-jar).
 *
 * <p>Arguments: the application directory, the number of cycles, and the request path with
 * {@code %d} for the cycle. Every response must be 200; the body is echoed to standard error.
 */
public final class TomcatRedeploy {

    private TomcatRedeploy() {
    }

    /** Keeps Tomcat's warnings (JULI logs through java.util.logging in embedded Tomcat). */
    private static final class Warnings extends Handler {
        final List<String> seen = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                String message = r.getMessage();
                if (r.getParameters() != null) {
                    message = java.text.MessageFormat.format(message, r.getParameters());
                }
                seen.add(r.getLoggerName() + ": " + message + (r.getThrown() == null ? "" : " " + r.getThrown()));
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }

    /**
     * @param args application directory, cycles, request path with {@code %d}
     * @throws Exception if Tomcat fails or a request does not answer 200
     */
    public static void main(String[] args) throws Exception {
        Path docBase = Path.of(args[0]);
        int cycles = Integer.parseInt(args[1]);
        String request = args[2];
        Warnings warnings = new Warnings();
        Logger.getLogger("").addHandler(warnings);

        Path base = Files.createTempDirectory("spool-tomcat");
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        tomcat.setPort(0);
        tomcat.setAddDefaultWebXmlToWebapp(false); // no default and JSP servlets: Jasper is not here
        tomcat.getConnector();
        StandardHost host = (StandardHost) tomcat.getHost();
        tomcat.start();
        int port = tomcat.getConnector().getLocalPort();
        try {
            for (int cycle = 0; cycle < cycles; cycle++) {
                Context context = tomcat.addWebapp("/app", docBase.toString());
                if (context.getState() != LifecycleState.STARTED) {
                    throw new IllegalStateException("cycle " + cycle + ": the application did not start: " + warnings.seen);
                }
                get(port, "/app/" + String.format(request, cycle), cycle);
                host.removeChild(context); // undeploy: stops the context, then Tomcat checks for leaks
            }
            List<String> leaks = List.of();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            do {
                leaks = Arrays.asList(host.findReloadedContextMemoryLeaks()); // runs System.gc() first
                if (leaks.isEmpty()) {
                    break;
                }
                Thread.sleep(100); // polling collection, as the manager's "find leaks" button would be pressed again
            } while (System.nanoTime() - deadline < 0);
            for (String w : warnings.seen) {
                System.err.println("tomcat-warning: " + w.replace('\n', ' '));
            }
            System.err.println("findleaks: " + leaks);
        } finally {
            tomcat.stop();
            tomcat.destroy();
            deleteTree(base);
        }
        System.err.flush();
        System.exit(0);
    }

    private static void get(int port, String path, int cycle) throws IOException {
        HttpURLConnection c = (HttpURLConnection) URI.create("http://localhost:" + port + path).toURL().openConnection();
        c.setConnectTimeout(10_000);
        c.setReadTimeout(30_000);
        int status = c.getResponseCode();
        String body;
        try (InputStream in = status == 200 ? c.getInputStream() : c.getErrorStream()) {
            body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (status != 200) {
            throw new IOException("cycle " + cycle + ": GET " + path + " answered " + status + ": " + body);
        }
        System.err.println("cycle " + cycle + ": " + body.trim());
    }

    /**
     * Runs {@link #main} in a new JVM whose class path is Tomcat and core's test classes only, so
     * that the web application's framework and Spool come from its {@code WEB-INF/lib} alone.
     *
     * @param docBase    the application directory
     * @param jvmOptions options for the new JVM
     * @param cycles     deploy/undeploy cycles
     * @param request    the request path with {@code %d} for the cycle
     * @return its exit status, standard output (what the application's appenders wrote) and error
     * @throws Exception if it cannot be run or does not end within two minutes (it takes 20 to 40 s
     *     on a shared 2-core machine; the bound only ends a hung run)
     */
    public static Redeploy.Run fork(Path docBase, List<String> jvmOptions, int cycles, String request) throws Exception {
        String classPath = Stream.of(Tomcat.class, jakartaAnnotation(), TomcatRedeploy.class)
                .map(c -> {
                    try {
                        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
                    } catch (java.net.URISyntaxException e) {
                        throw new IllegalStateException(e);
                    }
                })
                .distinct().collect(Collectors.joining(File.pathSeparator));
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        // What catalina.sh opens, so that Tomcat's leak detection can look into thread-locals,
        // RMI targets and the JDK's caches instead of warning that it cannot.
        for (String open : List.of("java.base/java.lang", "java.base/java.io", "java.base/java.util",
                "java.base/java.util.concurrent", "java.rmi/sun.rmi.transport")) {
            cmd.add("--add-opens=" + open + "=ALL-UNNAMED");
        }
        // No TLD or web-fragment scanning of WEB-INF/lib: it would only slow each deployment down.
        cmd.add("-Dtomcat.util.scan.StandardJarScanFilter.jarsToSkip=*");
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(TomcatRedeploy.class.getName());
        cmd.add(docBase.toString());
        cmd.add(String.valueOf(cycles));
        cmd.add(request);
        Path out = docBase.resolveSibling("tomcat.out");
        Path err = docBase.resolveSibling("tomcat.err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new IllegalStateException("Tomcat run did not end within 120 s; stderr:\n" + Files.readString(err));
        }
        return new Redeploy.Run(p.exitValue(), Files.readAllLines(out), Files.readString(err));
    }

    /**
     * Writes an exploded web application: a {@code web.xml} with one listener and one servlet
     * mapped to {@code /log}, those two classes (and their nested classes) and one configuration
     * file in {@code WEB-INF/classes}, and the code of each library class: its jar copied into
     * {@code WEB-INF/lib}, or its class directory (a module's own classes in the test phase) copied
     * into {@code WEB-INF/classes}.
     *
     * @param app        the directory to create
     * @param listener   the {@code ServletContextListener} that starts and stops logging
     * @param servlet    the servlet that logs
     * @param configName the logging configuration's file name
     * @param config     its text
     * @param libraries  one class of each library the application bundles
     * @return {@code app}
     * @throws Exception if a file cannot be written
     */
    public static Path explodedWebApp(Path app, Class<?> listener, Class<?> servlet, String configName, String config,
            Class<?>... libraries) throws Exception {
        Path classes = Files.createDirectories(app.resolve("WEB-INF/classes"));
        Path lib = Files.createDirectories(app.resolve("WEB-INF/lib"));
        Files.writeString(app.resolve("WEB-INF/web.xml"), "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.0\""
                + " metadata-complete=\"true\">\n"
                + "  <listener><listener-class>" + listener.getName() + "</listener-class></listener>\n"
                + "  <servlet><servlet-name>log</servlet-name><servlet-class>" + servlet.getName() + "</servlet-class></servlet>\n"
                + "  <servlet-mapping><servlet-name>log</servlet-name><url-pattern>/log</url-pattern></servlet-mapping>\n"
                + "</web-app>\n");
        Files.writeString(classes.resolve(configName), config);
        for (Class<?> c : new Class<?>[] {listener, servlet}) {
            Path from = location(c);
            String prefix = c.getName().replace('.', '/');
            Path dir = from.resolve(prefix).getParent();
            try (Stream<Path> s = Files.list(dir)) {
                for (Path p : s.collect(Collectors.toList())) {
                    String name = p.getFileName().toString();
                    if (name.equals(c.getSimpleName() + ".class") || name.startsWith(c.getSimpleName() + "$")) {
                        Path target = classes.resolve(from.relativize(p).toString());
                        Files.createDirectories(target.getParent());
                        Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        }
        for (Class<?> c : libraries) {
            Path from = location(c);
            if (Files.isDirectory(from)) {
                copyTree(from, classes);
            } else {
                Files.copy(from, lib.resolve(from.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        return app;
    }

    private static Path location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : s.collect(Collectors.toList())) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static Class<?> jakartaAnnotation() {
        try {
            return Class.forName("jakarta.annotation.Resource");
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("tomcat-annotations-api is not on the test class path", e);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(p);
            }
        }
    }
}
