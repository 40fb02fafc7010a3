/**
 * Test runner configuration: one "node" project for unit and integration
 * tests (loopback HTTP against packages/testserver), one "browser" project for
 * tests that drive Debian's Chromium through playwright-core.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "node",
          include: ["packages/*/src/**/*.test.ts", "packages/*/test/**/*.test.ts", "bench/**/*.test.ts"],
          exclude: ["**/*.browser.test.ts", "**/node_modules/**"],
          environment: "node",
          setupFiles: ["packages/testserver/src/testing/vitest-setup.ts"],
          testTimeout: 20_000,
          hookTimeout: 20_000,
        },
      },
      {
        test: {
          name: "browser",
          include: ["packages/*/**/*.browser.test.ts"],
          exclude: ["**/node_modules/**"],
          environment: "node",
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
