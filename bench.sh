#!/usr/bin/env bash
# Spool benchmark suite in one command.
#   ./bench.sh quick   a few minutes on 2 cores: proves the suite works; numbers are indicative only
#   ./bench.sh full    for publishing (run on a quiet machine)
# Extra options go to the runner: --scenarios console,ringlog,stall,request,rolling,accesslog,producers,jmh  --repeats N  --out DIR
#   --console-events N  --console-threads 1,4  --console-sinks file,pipe,devnull
# Results (CSV, JMH JSON, Markdown table, PNG charts) go to docs/benchmarks/<mode>/.
set -euo pipefail
cd "$(dirname "$0")"

mode="${1:-quick}"
case "$mode" in
  quick|full) shift || true ;;
  *) echo "usage: $0 quick|full [--scenarios a,b] [--repeats N] [--out DIR]" >&2; exit 2 ;;
esac

echo "== building jmh-benchmarks/target/benchmarks.jar"
mvn -B -q -DskipTests -pl jmh-benchmarks -am package

# The runner itself needs little memory; each configuration runs in its own child JVM
# (-Xms1g -Xmx1g -XX:+UseG1GC). Headless: the charts are rendered without a display.
exec java -Xmx512m -Djava.awt.headless=true -jar jmh-benchmarks/target/benchmarks.jar "$mode" "$@"
