// Preloaded into the `skillbench run` process by bench/run-overhead.mjs (node --import): when
// the process exits it writes its own CPU time (process.cpuUsage: this process only, not the
// agents, validators or other children it waited for) to $SKILLBENCH_BENCH_CPU_FILE.
import { writeFileSync } from "node:fs";

const file = process.env.SKILLBENCH_BENCH_CPU_FILE;
if (file)
  process.on("exit", () => {
    const u = process.cpuUsage();
    writeFileSync(file, JSON.stringify({ user_ms: u.user / 1000, system_ms: u.system / 1000 }));
  });
