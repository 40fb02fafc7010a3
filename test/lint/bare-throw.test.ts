/**
 * The bare-throw rule fires: `throw new Error(...)` or a rejection with a
 * bare Error in any package's src (SDK, widget API, web app, test
 * homeserver) is reported with the rule's message, a typed error is not,
 * and test helpers stay free to throw plainly. ESLint runs with the
 * repository's own config (type-aware rules off: the probes belong to no
 * tsconfig), so a glob that stops matching fails here.
 */
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

const root = new URL("../..", import.meta.url).pathname;
const eslint = new ESLint({ cwd: root, overrideConfig: [tseslint.configs.disableTypeChecked] });
const MESSAGE = "Throw the domain's typed error (with the SPEC message where one exists), not a bare Error.";
const REJECT = "Reject with the domain's typed error, not a bare Error.";

async function lint(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${file}` });
  return (result?.messages ?? []).map((m) => m.message);
}

const BARE = 'export function probe(): void {\n  throw new Error("no");\n}\n';
const TYPED =
  'class ProbeError extends Error {}\nexport function probe(): void {\n  throw new ProbeError("no");\n}\n';

describe("no bare throw new Error in library code", () => {
  it.each([
    "packages/sdk/src/sync/probe.ts",
    "packages/widget-api/src/actions/probe.ts",
    "packages/web/src/state/probe.ts",
    "packages/web/src/features/probe.tsx",
    "packages/testserver/src/routes/probe.ts",
  ])("fires in %s", async (file) => {
    expect(await lint(file, BARE)).toContain(MESSAGE);
    expect(await lint(file, TYPED)).not.toContain(MESSAGE);
  });

  it.each(["packages/sdk/src/voip/probe.ts", "packages/web/src/state/probe.ts"])(
    "fires on a rejection with a bare Error in %s",
    async (file) => {
      const reject =
        'export function probe(): Promise<void> {\n  return Promise.reject(new Error("no"));\n}\n';
      const executor =
        'export function probe(): Promise<void> {\n  return new Promise((_, reject) => reject(new Error("no")));\n}\n';
      expect(await lint(file, reject)).toContain(REJECT);
      expect(await lint(file, executor)).toContain(REJECT);
      expect(await lint(file, reject.replace("new Error", "new TypeError"))).not.toContain(REJECT);
    },
  );

  it.each([
    "packages/sdk/test/sync/probe.test.ts",
    "packages/sdk/src/api/testing/probe.ts",
    "packages/web/src/state/rooms/testing.ts",
    "packages/web/src/state/probe.test.ts",
  ])("leaves test code alone: %s", async (file) => {
    expect(await lint(file, BARE)).not.toContain(MESSAGE);
  });
});
