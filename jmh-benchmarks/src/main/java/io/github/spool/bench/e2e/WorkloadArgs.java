package io.github.spool.bench.e2e;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Command line of a workload program ({@code <configuration> key=value...}) and its result file: the
 * child JVM's stdout belongs to the logging under test, so results travel through a file of
 * {@code key=value} lines named by {@code result=}.
 */
final class WorkloadArgs {

    private final Configuration configuration;
    private final Map<String, String> values = new LinkedHashMap<>();
    private final Map<String, String> results = new LinkedHashMap<>();

    private WorkloadArgs(String[] args) {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: <configuration> key=value...");
        }
        configuration = Subjects.byName(args[0]);
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("expected key=value, got " + args[i]);
            }
            values.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
    }

    /**
     * @param args the program's arguments
     * @return the parsed arguments
     */
    static WorkloadArgs parse(String[] args) {
        return new WorkloadArgs(args);
    }

    Configuration configuration() {
        return configuration;
    }

    long longValue(String key, long otherwise) {
        String v = values.get(key);
        return v == null ? otherwise : Long.parseLong(v);
    }

    double doubleValue(String key, double otherwise) {
        String v = values.get(key);
        return v == null ? otherwise : Double.parseDouble(v);
    }

    /** @return the {@code result=} file, or {@code slow-calls} in the working directory */
    String resultFile() {
        return values.getOrDefault("result", "slow-calls");
    }

    void put(String key, Object value) {
        results.put(key, String.valueOf(value));
    }

    void putAll(Map<String, String> facts) {
        results.putAll(facts);
    }

    /**
     * Writes the results to the {@code result=} file, or to stderr when none was given.
     *
     * @throws IOException if the file cannot be written
     */
    void writeResults() throws IOException {
        StringBuilder sb = new StringBuilder();
        results.forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
        String file = values.get("result");
        if (file == null) {
            System.err.print(sb);
            return;
        }
        Path tmp = Path.of(file + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            w.write(sb.toString());
        }
        Files.move(tmp, Path.of(file), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
}
