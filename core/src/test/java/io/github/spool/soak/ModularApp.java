// SPDX-License-Identifier: Apache-2.0
package io.github.spool.soak;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A modular application built and run at test time: compiles a {@code module-info.java} and a main
 * class against a module path of jars, then runs it with {@code java --module-path ... -m} in a
 * fresh JVM, or links it with {@code jlink} into a runtime image and runs that image's
 * {@code java -m}, so that the jars are used as JPMS modules, not from the class path. Test support
 * (core's test-jar) for the modules' JPMS consumer checks.
 */
public final class ModularApp {

    /** What a run printed and how it ended. */
    public static final class Result {
        /** The JVM's exit status. */
        public final int exitCode;
        /** Its standard output. */
        public final String stdout;
        /** Its standard error. */
        public final String stderr;

        Result(int exitCode, String stdout, String stderr) {
            this.exitCode = exitCode;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
        }
    }

    private final Path dir;
    private final List<Path> modulePath;

    /**
     * @param dir        an empty working directory
     * @param modulePath the jars the application is compiled and run against
     */
    public ModularApp(Path dir, List<Path> modulePath) {
        this.dir = dir;
        this.modulePath = List.copyOf(modulePath);
        for (Path p : modulePath) {
            if (!Files.isRegularFile(p)) {
                throw new IllegalArgumentException("not a jar: " + p + " (JPMS checks need packaged jars; build with -am)");
            }
        }
    }

    /**
     * The jar a class was loaded from.
     *
     * @param c a class loaded from a jar on this JVM's class path
     * @return that jar
     */
    public static Path jarOf(Class<?> c) {
        try {
            Path p = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (!Files.isRegularFile(p)) {
                throw new IllegalStateException(c.getName() + " comes from " + p + ", not from a jar");
            }
            return p;
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Compiles module {@code app}, which requires {@code module}, with one class {@code app.Main}
     * whose {@code main} method runs {@code body}: what a user's modular application that logs
     * through an adapter looks like.
     *
     * @param module  the module the application requires (an adapter's)
     * @param imports classes {@code Main} imports
     * @param body    the statements of {@code main}
     * @throws IOException if a file cannot be written, or compilation fails (with javac's output)
     */
    public void compileApp(String module, List<String> imports, String body) throws IOException {
        StringBuilder main = new StringBuilder("package app;\n");
        imports.forEach(i -> main.append("import ").append(i).append(";\n"));
        main.append("public final class Main {\n    public static void main(String[] args) {\n")
                .append(body.indent(8)).append("    }\n}\n");
        compile(Map.of("module-info.java", "module app {\n    requires " + module + ";\n}\n", "app/Main.java", main.toString()));
    }

    /**
     * Compiles the module's sources into {@code dir/classes}.
     *
     * @param sources relative path (e.g. {@code app/Main.java}) to source text, module-info included
     * @throws IOException if a file cannot be written, or compilation fails (with javac's output)
     */
    public void compile(Map<String, String> sources) throws IOException {
        Path src = dir.resolve("src");
        List<String> args = new ArrayList<>(List.of("-d", dir.resolve("classes").toString(), "--module-path",
                joined(), "-Xlint:all,-requires-automatic"));
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path file = src.resolve(e.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, e.getValue(), StandardCharsets.UTF_8);
            args.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (javac.run(null, out, out, args.toArray(new String[0])) != 0) {
            throw new IOException("javac failed: " + out.toString(StandardCharsets.UTF_8));
        }
    }

    /**
     * Runs {@code module/mainClass} on the module path (the jars and the compiled module).
     *
     * @param module     the application's module name
     * @param mainClass  its main class
     * @param jvmOptions extra options before {@code -m}
     * @return what it printed
     * @throws Exception if it cannot be started or does not end within a minute
     */
    public Result run(String module, String mainClass, List<String> jvmOptions) throws Exception {
        return run(module, mainClass, jvmOptions, List.of());
    }

    /**
     * Runs {@code module/mainClass} on the module path (the jars and the compiled module).
     *
     * @param module     the application's module name
     * @param mainClass  its main class
     * @param jvmOptions extra options before {@code -m}
     * @param args       the main class's arguments
     * @return what it printed
     * @throws Exception if it cannot be started or does not end within a minute
     */
    public Result run(String module, String mainClass, List<String> jvmOptions, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        cmd.add("--module-path");
        cmd.add(modulePathWithApp());
        cmd.add("-m");
        cmd.add(module + "/" + mainClass);
        cmd.addAll(args);
        return start(cmd);
    }

    /**
     * Links the compiled module, the jars it needs and the JDK modules they require into a runtime
     * image ({@code jlink --add-modules module}, the running JDK's own modules), under
     * {@code dir/image}. jlink refuses automatic modules: every jar the module graph reaches must
     * have a {@code module-info}.
     *
     * @param module the application's module name, the image's root
     * @param extra  more root modules: those a framework uses when present (its
     *               {@code requires static}), which nothing resolves otherwise
     * @return the image's directory
     * @throws IOException if jlink fails (with its output)
     */
    public Path link(String module, String... extra) throws IOException {
        Path image = dir.resolve("image");
        java.util.spi.ToolProvider jlink = java.util.spi.ToolProvider.findFirst("jlink")
                .orElseThrow(() -> new IllegalStateException("no jlink in " + System.getProperty("java.home")));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8)) {
            String roots = String.join(",", java.util.stream.Stream.concat(java.util.stream.Stream.of(module),
                    java.util.Arrays.stream(extra)).toList());
            int status = jlink.run(print, print, "--module-path", modulePathWithApp(), "--add-modules", roots,
                    "--no-header-files", "--no-man-pages", "--output", image.toString());
            if (status != 0) {
                throw new IOException("jlink failed (" + status + "): " + out.toString(StandardCharsets.UTF_8));
            }
        }
        return image;
    }

    /**
     * Runs {@code module/mainClass} with a linked image's own {@code java}: no module path, no
     * class path.
     *
     * @param image      what {@link #link} returned
     * @param module     the application's module name
     * @param mainClass  its main class
     * @param jvmOptions extra options before {@code -m}
     * @return what it printed
     * @throws Exception if it cannot be started or does not end within a minute
     */
    public Result runImage(Path image, String module, String mainClass, List<String> jvmOptions) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(image.resolve("bin").resolve("java").toString());
        cmd.addAll(jvmOptions);
        cmd.add("-m");
        cmd.add(module + "/" + mainClass);
        return start(cmd);
    }

    /**
     * The module a jar is, as the module system reads it.
     *
     * @param jar a jar
     * @return its descriptor: explicit from its {@code module-info.class}, or automatic
     */
    public static ModuleDescriptor descriptorOf(Path jar) {
        return ModuleFinder.of(jar).findAll().iterator().next().descriptor();
    }

    /**
     * A jar the pom's {@code packaged-jar} execution names, built in the {@code package} phase.
     *
     * @param property the system property that holds its path
     * @return the jar
     */
    public static Path packagedJar(String property) {
        String path = System.getProperty(property);
        assertNotNull(path, "-D" + property + " (set by the pom's packaged-jar execution)");
        return Path.of(path);
    }

    /**
     * Asserts that each jar is the explicit (not automatic) module it should be.
     *
     * @param moduleByJarProperty module name by the system property naming its jar ({@link #packagedJar})
     */
    public static void assertExplicitModules(Map<String, String> moduleByJarProperty) {
        moduleByJarProperty.forEach((property, name) -> {
            ModuleDescriptor module = descriptorOf(packagedJar(property));
            assertEquals(name, module.name(), property);
            assertFalse(module.isAutomatic(), module::toString);
        });
    }

    /**
     * Packages that more than one of the jars holds: a module graph with two of them fails at
     * startup, and on the class path one shadows the other.
     *
     * @param jars the jars, each read as a module
     * @return package name to the names of the modules that hold it, only for split packages
     */
    public static Map<String, List<String>> splitPackages(List<Path> jars) {
        Map<String, TreeSet<String>> holders = new TreeMap<>();
        for (ModuleReference m : ModuleFinder.of(jars.toArray(new Path[0])).findAll()) {
            for (String p : m.descriptor().packages()) {
                holders.computeIfAbsent(p, k -> new TreeSet<>()).add(m.descriptor().name());
            }
        }
        Map<String, List<String>> split = new TreeMap<>();
        holders.forEach((p, modules) -> {
            if (modules.size() > 1) {
                split.put(p, List.copyOf(modules));
            }
        });
        return split;
    }

    private Result start(List<String> cmd) throws Exception {
        Path out = Files.createTempFile(dir, "stdout", ".txt");
        Path err = Files.createTempFile(dir, "stderr", ".txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("modular app did not end within 60 s: " + cmd);
        }
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    private String modulePathWithApp() {
        return joined() + java.io.File.pathSeparator + dir.resolve("classes");
    }

    private String joined() {
        return modulePath.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator));
    }
}
