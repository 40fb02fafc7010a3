/**
 * Test runner configuration: one "node" project for unit and integration
 * tests (loopback HTTP against packages/testserver), one "interop" project
 * for the scenarios run against every homeserver of
 * packages/sdk/test/interop/servers.ts (test homeserver, Synapse current and
 * 1.67), one "browser" project for tests that drive Debian's Chromium
 * through playwright-core.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "node",
          include: [
            "packages/*/src/**/*.test.ts",
            "packages/*/test/**/*.test.ts",
            "bench/**/*.test.ts",
            "test/**/*.test.ts",
          ],
          exclude: ["**/*.browser.test.ts", "packages/*/test/interop/**", "**/node_modules/**"],
          environment: "node",
          setupFiles: ["packages/testserver/src/testing/vitest-setup.ts"],
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        test: {
          name: "interop",
          include: ["packages/*/test/interop/**/*.test.ts"],
          exclude: ["**/node_modules/**"],
          environment: "node",
          // The test homeserver's answers are still checked against the spec.
          setupFiles: ["packages/testserver/src/testing/vitest-setup.ts"],
          // Real servers answer more slowly than the in-process one, more so on a loaded machine.
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // One file (so one Synapse) at a time: the gate runs beside lint and typecheck.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: "browser",
          include: ["packages/*/**/*.browser.test.ts"],
          exclude: ["**/node_modules/**"],
          environment: "node",
          // The pages talk to the test homeserver too: its answers are checked against the spec.
          setupFiles: ["packages/testserver/src/testing/vitest-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // expect.poll waits on an outcome; its 1 s default bound is too short for a page on a loaded
          // machine (a sync round trip, a render), so a slow pass would read as a failure.
          expect: { poll: { timeout: 20_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
});
