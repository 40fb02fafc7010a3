/**
 * Test runner configuration: one "node" project for unit and integration
 * tests (loopback HTTP against packages/testserver), one "interop" project
 * for the scenarios run against every homeserver of
 * packages/sdk/test/interop/servers.ts (test homeserver, Synapse current and
 * 1.67), and two projects for tests that drive Debian's Chromium through
 * playwright-core: "browser" (two files at a time) and "browser-alone"
 * (the heavy ones, one at a time).
 */
import { defineConfig } from "vitest/config";

/**
 * Browser test files that run alone: calls with real media (decoding and
 * encoding fake camera video in several pages), LiveKit, Element Call,
 * production builds, Synapse, and measures of frame times.
 */
const ALONE = [
  "packages/web/e2e/calls*.browser.test.ts",
  "packages/web/e2e/livekit*.browser.test.ts",
  "packages/web/e2e/element-call.browser.test.ts",
  "packages/web/e2e/embedded*.browser.test.ts",
  "packages/web/e2e/built.browser.test.ts",
  "packages/web/e2e/pwa.browser.test.ts",
  "packages/web/e2e/synapse.browser.test.ts",
  "packages/web/e2e/render-budget.browser.test.ts",
  "packages/web/e2e/timeline-scale.browser.test.ts",
];

/** What both browser projects share. */
const BROWSER = {
  environment: "node",
  // The pages talk to the test homeserver too: its answers are checked against the spec.
  setupFiles: ["packages/testserver/src/testing/vitest-setup.ts"],
  testTimeout: 60_000,
  hookTimeout: 60_000,
  // expect.poll waits on an outcome; its 1 s default bound is too short for a page on a loaded
  // machine (a sync round trip, a render), so a slow pass would read as a failure.
  expect: { poll: { timeout: 20_000 } },
};

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
          // Vitest's default is one worker fewer than the cores: one on a two-core machine.
          maxWorkers: "100%",
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
          exclude: ["**/node_modules/**", ...ALONE],
          ...BROWSER,
          // Two files at a time: a chat page mostly waits on sync and rendering, so two
          // share the two cores well (each file has its own homeserver, Vite and Chromium).
          fileParallelism: true,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: "browser-alone",
          include: ALONE,
          exclude: ["**/node_modules/**"],
          ...BROWSER,
          // Calls, builds, Synapse and frame-time measures use every core: one file at a time,
          // after the other browser files (a higher group runs after a lower one).
          fileParallelism: false,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
