/**
 * The import arrows fire: for each rule of eslint.config.js that guards an
 * arrow (SDK layers, the SDK entry and barrels, relative reach into another
 * package, the web's view-model boundary, the packages the SDK, widget-api
 * and the test homeserver must not use), a forbidden import linted as if
 * it were a file in the guarded folder is reported with the rule's message,
 * and an allowed one in the same place is not. ESLint runs with the
 * repository's own config, so a glob that stops matching fails here too.
 * Type-aware rules are switched off: the probes are not files of any
 * tsconfig, and the arrows need no types.
 */
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

const root = new URL("../..", import.meta.url).pathname;
const eslint = new ESLint({ cwd: root, overrideConfig: [tseslint.configs.disableTypeChecked] });

const ORDER =
  "util -> http -> api/auth -> store/sync -> models -> send/crypto/voip/rtc/files -> client -> embedded";
/** no-restricted-imports' wording around a pattern's message. */
const restricted = (source: string, message: string): string =>
  `'${source}' import is restricted from being used by a pattern. ${message}`;
const WEB =
  "Only packages/web/src/state, src/platform and src/sdk.ts may import the SDK ('{s}'): components and features read view models.";

/** The messages ESLint reports for one import of `source` from a file at `file` (repo-relative). */
async function lint(file: string, source: string): Promise<string[]> {
  const code = `import { probe } from "${source}";\nexport { probe };\n`;
  const [result] = await eslint.lintText(code, { filePath: `${root}${file}` });
  return (result?.messages ?? []).map((m) => m.message);
}

/** [file, import, message] for each forbidden import. */
const BAD: ReadonlyArray<readonly [string, string, string]> = [
  // SDK layers: a lower layer never imports a higher one, at any depth.
  [
    "packages/sdk/src/http/probe.ts",
    "../api/login",
    `SDK layer 'http' must not import layer 'api': dependencies point ${ORDER}.`,
  ],
  [
    "packages/sdk/src/util/probe.ts",
    "../http/client",
    `SDK layer 'util' must not import layer 'http': dependencies point ${ORDER}.`,
  ],
  [
    "packages/sdk/src/sync/processor/probe.ts",
    "../../models/room/Room",
    `SDK layer 'sync' must not import layer 'models': dependencies point ${ORDER}.`,
  ],
  [
    "packages/sdk/src/models/room/deep/probe.ts",
    "../../../send/SendQueue",
    `SDK layer 'models' must not import layer 'send': dependencies point ${ORDER}.`,
  ],
  [
    "packages/sdk/src/crypto/probe.ts",
    "../client/index",
    `SDK layer 'crypto' must not import layer 'client': dependencies point ${ORDER}.`,
  ],
  [
    "packages/sdk/src/voip/probe.ts",
    "../client",
    `SDK layer 'voip' must not import layer 'client': dependencies point ${ORDER}.`,
  ],
  [
    "packages/sdk/src/newlayer/probe.ts",
    "../http/client",
    "SDK folder 'newlayer' is not in the layer table (scripts/eslint-arrows.mjs): give it a place.",
  ],
  // The SDK's entry and the barrels of the importer's own folders.
  [
    "packages/sdk/src/api/probe.ts",
    "@lattice/sdk",
    "Inside the SDK, import the module itself, not the package entry ('@lattice/sdk').",
  ],
  [
    "packages/sdk/src/api/probe.ts",
    "@lattice/sdk/http/client",
    "Inside the SDK, import the module itself, not the package entry ('@lattice/sdk/http/client').",
  ],
  [
    "packages/sdk/src/api/probe.ts",
    "..",
    "Inside the SDK, import the module itself, not the package entry ('..').",
  ],
  [
    "packages/sdk/src/models/room/probe.ts",
    "../../index",
    "Inside the SDK, import the module itself, not the package entry ('../../index').",
  ],
  [
    "packages/sdk/src/models/room/probe.ts",
    "..",
    "'..' is the barrel of a folder holding this file: import the module itself.",
  ],
  [
    "packages/sdk/src/models/room/probe.ts",
    "./index",
    "'./index' is the barrel of a folder holding this file: import the module itself.",
  ],
  // No relative reach into another package.
  [
    "packages/testserver/src/probe.ts",
    "../../sdk/src/client",
    "'../../sdk/src/client' reaches into packages/sdk by a relative path: import it by its package name.",
  ],
  [
    "packages/web/src/state/probe.ts",
    "../../../sdk/src/models/room/Room",
    "'../../../sdk/src/models/room/Room' reaches into packages/sdk by a relative path: import it by its package name.",
  ],
  [
    "packages/widget-api/src/probe.ts",
    "../../testserver/src/index",
    "'../../testserver/src/index' reaches into packages/testserver by a relative path: import it by its package name.",
  ],
  [
    "bench/sync/probe.ts",
    "../../packages/sdk/src/client",
    "'../../packages/sdk/src/client' reaches into packages/sdk by a relative path: import it by its package name.",
  ],
  [
    "packages/sdk/test/probe.test.ts",
    "../../../bench/sync/fixture",
    "'../../../bench/sync/fixture' reaches into bench by a relative path: import it by its package name.",
  ],
  // Web: only state/ and sdk.ts import the SDK.
  ["packages/web/src/features/threads/probe.tsx", "../../sdk", WEB.replace("{s}", "../../sdk")],
  ["packages/web/src/features/shell/probe.tsx", "@lattice/sdk", WEB.replace("{s}", "@lattice/sdk")],
  [
    "packages/web/src/features/shell/probe.tsx",
    "@lattice/sdk/models/room/Room",
    WEB.replace("{s}", "@lattice/sdk/models/room/Room"),
  ],
  ["packages/web/src/components/probe.tsx", "../sdk", WEB.replace("{s}", "../sdk")],
  ["packages/web/src/probe.tsx", "./sdk", WEB.replace("{s}", "./sdk")],
  ["packages/web/src/i18n/probe.ts", "../sdk.ts", WEB.replace("{s}", "../sdk.ts")],
  // The widget API: only the SDK's embedded layer; and nothing imports the embedded layer but itself.
  [
    "packages/sdk/src/rtc/probe.ts",
    "@lattice/widget-api",
    "Only packages/sdk/src/embedded may import the widget API ('@lattice/widget-api'): the rest of the SDK works over HTTP.",
  ],
  [
    "packages/sdk/src/client/probe.ts",
    "../embedded/createEmbeddedClient",
    `SDK layer 'client' must not import layer 'embedded': dependencies point ${ORDER}.`,
  ],
  // Packages some code must not use at all.
  ["packages/sdk/src/models/probe.ts", "react", restricted("react", "The SDK has no UI.")],
  [
    "packages/sdk/src/client/probe.ts",
    "@lattice/testserver",
    restricted("@lattice/testserver", "Only tests may use the test homeserver."),
  ],
  [
    "packages/widget-api/src/probe.ts",
    "@lattice/sdk",
    restricted("@lattice/sdk", "widget-api depends on nothing of the SDK."),
  ],
  [
    "packages/testserver/src/probe.ts",
    "@lattice/sdk/client",
    restricted(
      "@lattice/sdk/client",
      "The test homeserver stands alone: it must not share code with the client it tests.",
    ),
  ],
];

/** [file, import] pairs that are allowed. */
const GOOD: ReadonlyArray<readonly [string, string]> = [
  ["packages/sdk/src/embedded/probe.ts", "@lattice/widget-api"],
  ["packages/sdk/src/embedded/probe.ts", "../client"],
  ["packages/sdk/src/api/probe.ts", "../http"],
  ["packages/sdk/src/models/room/probe.ts", "../../sync/SyncLoop"],
  ["packages/sdk/src/models/room/probe.ts", "../room-list/filters"],
  ["packages/sdk/src/client/probe.ts", "../voip"],
  ["packages/sdk/src/rtc/probe.ts", "../util/observable"],
  ["packages/sdk/src/http/probe.test.ts", "../client"],
  ["packages/sdk/test/probe.test.ts", "@lattice/bench/sync/fixture"],
  ["packages/testserver/src/probe.ts", "./http/types"],
  ["packages/web/src/state/probe.ts", "../sdk"],
  ["packages/web/src/state/probe.ts", "@lattice/sdk/client"],
  ["packages/web/src/platform/probe.ts", "../sdk"],
  ["packages/web/src/sdk.ts", "@lattice/sdk/http/client"],
  ["packages/web/src/features/shell/probe.tsx", "../../state/observables"],
  ["packages/web/e2e/probe.ts", "@lattice/sdk/client"],
  ["bench/sync/probe.ts", "@lattice/sdk/client"],
];

describe("lint arrows", () => {
  it.each(BAD)("%s may not import %s", async (file, source, message) => {
    expect(await lint(file, source)).toContain(message);
  });

  it.each(GOOD)("%s may import %s", async (file, source) => {
    expect(await lint(file, source)).toEqual([]);
  });
});
