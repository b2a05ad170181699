package io.github.spool.bench.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scaling model's formula, and the warmed-up, CPU-split runs it reads (issue 34). */
class ScalingModelTest {

    @Test
    void eventsPerSecondGrowWithCoresUntilTheSerialThreadIsTheBottleneck() {
        double cpu = 800;
        double serial = 200;
        double one = ScalingModel.predict(1, cpu, serial);
        assertEquals(1e9 / cpu, one, 1e-6);
        assertEquals(2 * one, ScalingModel.predict(2, cpu, serial), 1e-6);
        // 4 cores would do 4 / 800 ns, but the serial thread does only 1 / 200 ns: the cap
        assertEquals(1e9 / serial, ScalingModel.predict(4, cpu, serial), 1e-6);
        assertEquals(ScalingModel.predict(4, cpu, serial), ScalingModel.predict(32, cpu, serial), 1e-6);
        // no serial part measured: linear
        assertEquals(32 * one, ScalingModel.predict(32, cpu, 0), 1e-6);
    }

    @Test
    void aRunThatLeftItsCoresIdleIsPredictedFlatAndABusyOneByItsCosts() {
        // 0.3M events/s at 3,000 ns: 0.9 of 2 cores busy, the rest waited on its serial part
        assertEquals(0.9, ScalingModel.busyCores(0.3e6, 3000), 1e-9);
        double idle = ScalingModel.busyCores(0.3e6, 3000);
        assertTrue(ScalingModel.serialBound(2, idle));
        assertEquals(0.3e6, ScalingModel.extrapolate(32, 2, idle, 0.3e6, 3000, 1000), 1e-6);
        // 2.2M events/s at 900 ns: both cores busy, so more cores help until the serial thread's cap
        double busy = ScalingModel.busyCores(2.2e6, 900);
        assertTrue(!ScalingModel.serialBound(2, busy));
        assertEquals(ScalingModel.predict(8, 900, 150), ScalingModel.extrapolate(8, 2, busy, 2.2e6, 900, 150), 1e-6);
        assertTrue(ScalingModel.extrapolate(4, 2, busy, 2.2e6, 900, 150) > 2.2e6);
    }

    @Test
    void theTableIsRedoneFromARunsFigures(@TempDir Path work) throws Exception {
        Path csv = work.resolve("runs.csv");
        Files.writeString(csv, String.join("\n", "configuration,cpus,repeat,events_per_s,cpu_ns_per_event,"
                        + "serial_ns_per_event,serial_is_consumer,verification",
                "spool-logback,\"0\",1,1200000,800,100,true,\"OK 100 lines\"",
                "spool-logback,\"0,1\",1,2200000,900,150,true,\"OK 100 lines\"",
                "logback-console,\"0\",1,370000,2700,1250,false,\"OK 100 lines\"",
                "logback-console,\"0,1\",1,320000,3300,1600,false,\"OK 100 lines\"") + "\n");
        Path out = work.resolve("out");
        ScalingModel.main(new String[] {"out=" + out, "from=" + csv});
        String table = Files.readString(out.resolve("scaling.md"));
        String spool = table.lines().filter(l -> l.startsWith("| spool-logback |")).findFirst().orElseThrow();
        String console = table.lines().filter(l -> l.startsWith("| logback-console (S: its write calls) |"))
                .findFirst().orElseThrow();
        // the console left its 2 cores idle: flat at 0.32M; Spool grows to its writer's 1 / 150 ns
        assertTrue(console.contains("serial part (cores idle)") && console.endsWith(" 0.32 | 0.32 | 0.32 | 0.32 |"), console);
        assertTrue(spool.endsWith(String.format(java.util.Locale.ROOT, " %.2f | %.2f | %.2f | %.2f |",
                ScalingModel.predict(4, 900, 150) / 1e6, ScalingModel.predict(8, 900, 150) / 1e6,
                ScalingModel.predict(16, 900, 150) / 1e6, ScalingModel.predict(32, 900, 150) / 1e6)), spool);
    }

    @Test
    void aWarmedUpRunVerifiesEveryLineAndSplitsItsCpu(@TempDir Path work) throws Exception {
        ChildJvm children = new ChildJvm(work);
        int threads = 2;
        long events = 20_000;
        long warmup = 10_000;
        for (String name : List.of("spool-logback", "logback-console")) {
            ChildJvm.Outcome o = children.run(ThroughputWorkload.class, Subjects.byName(name), Sink.FILE,
                    List.of("threads=" + threads, "events=" + events, "warmup=" + warmup));
            // the warm-up's lines and the timed ones, one unbroken sequence per producer
            assertTrue(o.verdict() != null && o.verdict().ok(), name + ": " + o.verification());
            assertEquals(events + warmup, o.verdict().lines(), name);
            assertEquals(events, (long) o.number("events"), name);
            Map<String, String> v = o.values();
            double timed = o.number("cpu.timed.nanos");
            double producers = o.number("cpu.producers.nanos");
            assertTrue(producers > 0 && producers <= timed, name + ": " + v);
            assertTrue(o.number("cpu.producers.sys.nanos") >= 0, name + ": " + v);
            ScalingModel.Run run = ScalingModel.Run.of(o);
            // Spool's writer takes the lines off its ring; logback's console writes on the caller
            assertEquals(name.startsWith("spool"), run.serialIsConsumer(), name + ": " + v);
            assertTrue(run.eventsPerSecond() > 0 && run.cpuPerEvent() > 0, name + ": " + run);
        }
        try (var left = Files.list(work)) {
            assertEquals(0, left.count(), "child files left behind");
        }
    }

    @Test
    void consumerThreadsAreKnownByTheirFrameworksNames() {
        assertTrue(CpuFacts.isConsumer("spool-writer-STDOUT"));
        assertTrue(CpuFacts.isConsumer("Log4j2-TF-1-AsyncLogger[AsyncContext@5c647e05]-1"));
        assertTrue(CpuFacts.isConsumer("AsyncAppender-Worker-ASYNC"));
        assertTrue(!CpuFacts.isConsumer(EventLine.threadName(0)));
        assertTrue(!CpuFacts.isConsumer("main"));
    }
}
