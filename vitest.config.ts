import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // End-to-end tests spawn the real agent binaries; on a 2-core machine they must not all
    // run at once. Three files at a time, not two: most of an e2e test's wall time is waiting
    // (agent boots, a model that never answers until the timeout, retries with back-off, lock
    // expiry), and with two a fresh-clone CI run kept the two cores about a third busy
    // (13 min user + 2 min sys over 16.6 min of tests) and took over 20 minutes in all.
    fileParallelism: true,
    maxWorkers: 3,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
