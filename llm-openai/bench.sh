#!/usr/bin/env bash
# Runs OpenAiThroughputBenchmark against the loopback server. Args: [latencyMs] [requestsPerSlot] [concurrency...]
# Uses this worktree's compiled classes for the secpe modules (never the shared ~/.m2 copies).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
./mvnw -q -B -ntp -o -pl llm-openai -am test-compile -Dmaven.test.skip.exec=true >&2
./mvnw -q -B -ntp -o -pl llm-openai dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$root/llm-openai/target/bench-cp.txt" >&2
cp="$(tr ':' '\n' < llm-openai/target/bench-cp.txt | grep -v '/dev/secpe/' | paste -sd: -)"
cp="llm-openai/target/test-classes:llm-openai/target/classes:llm-spi/target/classes:llm-testkit/target/classes:$cp"
exec java -cp "$cp" dev.secpe.llm.openai.OpenAiThroughputBenchmark "$@"
