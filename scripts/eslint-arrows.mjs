/**
 * The import arrows as one ESLint rule (`arrows/arrows`). It resolves each
 * import against the importing file's path, so it knows which package and
 * which SDK layer the target is in, whatever the depth of the `../`: a
 * pattern list on specifier strings (no-restricted-imports) cannot tell
 * `../send` from src/models/room (a sibling folder) from `../send` from
 * src/models (the send layer). Four rules, each with its own message:
 *
 * - layer: inside packages/sdk/src, a module never imports a higher layer
 *   (util -> http -> api/auth -> store/sync -> models ->
 *   send/crypto/voip/rtc/files -> client -> embedded); a top-level folder missing
 *   from the table is itself an error, so a new layer gets a place;
 * - barrel: inside packages/sdk/src, no import of the SDK's entry
 *   (`@lattice/sdk`, src/index.ts) and no import of the barrel (index) of
 *   a folder that holds the importing file (`..`, `../..`, `.`): both
 *   re-export the importer itself, a cycle waiting to happen;
 * - widget: inside packages/sdk/src, only the embedded layer imports
 *   @lattice/widget-api (the widget transport replaces HTTP there alone);
 * - package: no relative path from one package into another
 *   (`../../sdk/src/...`): a package is imported by its name;
 * - web: in packages/web/src only state/**, platform/** (the browser's
 *   implementations of SDK interfaces such as MediaPlatform) and sdk.ts may
 *   import the SDK (by package name, by path, or through web/src/sdk.ts);
 *   components and features read view models.
 *
 * Tests in src are exempt from the layer rule only (a test may drive a
 * module through a higher layer).
 */
import path from "node:path";

const ROOT = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const SDK_SRC = path.join(ROOT, "packages/sdk/src");
const WEB_SRC = path.join(ROOT, "packages/web/src");

/** SDK layers, lowest first; a module may import its own rank or lower. */
const SDK_LAYERS = [
  ["util"],
  ["http"],
  ["api", "auth"],
  ["store", "sync"],
  ["models"],
  ["send", "crypto", "voip", "rtc", "files"],
  ["client", "index"],
  ["embedded"],
];
const RANK = new Map(SDK_LAYERS.flatMap((group, i) => group.map((name) => [name, i])));
const ORDER =
  "util -> http -> api/auth -> store/sync -> models -> send/crypto/voip/rtc/files -> client -> embedded";

const MESSAGES = {
  layer: `SDK layer '{{from}}' must not import layer '{{to}}': dependencies point ${ORDER}.`,
  unplaced: "SDK folder '{{name}}' is not in the layer table (scripts/eslint-arrows.mjs): give it a place.",
  entry: "Inside the SDK, import the module itself, not the package entry ('{{source}}').",
  barrel: "'{{source}}' is the barrel of a folder holding this file: import the module itself.",
  package: "'{{source}}' reaches into {{pkg}} by a relative path: import it by its package name.",
  widget:
    "Only packages/sdk/src/embedded may import the widget API ('{{source}}'): the rest of the SDK works over HTTP.",
  web: "Only packages/web/src/state, src/platform and src/sdk.ts may import the SDK ('{{source}}'): components and features read view models.",
};

/** The package folder (packages/<name> or bench) holding a path, or null. */
function packageOf(file) {
  const rel = path.relative(ROOT, file).split(path.sep);
  if (rel[0] === "packages" && rel.length > 2) return path.join(ROOT, "packages", rel[1]);
  if (rel[0] === "bench" && rel.length > 1) return path.join(ROOT, "bench");
  return null;
}

/** The SDK layer name of a path inside packages/sdk/src ("client" for client.ts), or null. */
function layerOf(file) {
  const rel = path.relative(SDK_SRC, file);
  if (rel.startsWith("..") || rel === "") return null;
  const first = rel.split(path.sep)[0];
  return first.replace(/\.(ts|tsx|js)$/, "");
}

function inside(file, dir) {
  const rel = path.relative(dir, file);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** Where a specifier points: an absolute path (without extension), or null for a package we do not map. */
function resolve(source, file) {
  if (source.startsWith(".")) return path.resolve(path.dirname(file), source);
  if (source === "@lattice/sdk") return path.join(SDK_SRC, "index");
  if (source.startsWith("@lattice/sdk/")) return path.join(SDK_SRC, source.slice("@lattice/sdk/".length));
  return null;
}

/** The specifier a node imports from, if it is a string literal. */
function sourceOf(node) {
  const src = node.source ?? node.argument?.literal ?? node.argument;
  return src && src.type === "Literal" && typeof src.value === "string" ? src : null;
}

const rule = {
  meta: {
    type: "problem",
    docs: { description: "Imports point one way: SDK layers, packages, web view models." },
    messages: MESSAGES,
    schema: [],
  },
  create(context) {
    const file = path.resolve(context.filename);
    const pkg = packageOf(file);
    const inSdk = inside(file, SDK_SRC);
    const isTest = /\.test\.tsx?$/.test(file);
    const fromLayer = inSdk ? layerOf(file) : null;
    const webRestricted =
      inside(file, WEB_SRC) &&
      !inside(file, path.join(WEB_SRC, "state")) &&
      !inside(file, path.join(WEB_SRC, "platform")) &&
      file !== path.join(WEB_SRC, "sdk.ts");

    function check(node) {
      const lit = sourceOf(node);
      if (lit === null) return;
      const source = lit.value;
      if (inSdk && (source === "@lattice/widget-api" || source.startsWith("@lattice/widget-api/"))) {
        if (!isTest && fromLayer !== "embedded")
          context.report({ node: lit, messageId: "widget", data: { source } });
        return;
      }
      const target = resolve(source, file);
      if (target === null) return;
      const data = { source };
      const relative = source.startsWith(".");

      if (relative && pkg !== null) {
        const targetPkg = packageOf(target);
        if (targetPkg !== null && targetPkg !== pkg) {
          context.report({
            node: lit,
            messageId: "package",
            data: { source, pkg: path.relative(ROOT, targetPkg) },
          });
          return;
        }
      }
      if (
        webRestricted &&
        (inside(target, path.join(ROOT, "packages/sdk")) ||
          target.replace(/\.ts$/, "") === path.join(WEB_SRC, "sdk"))
      ) {
        context.report({ node: lit, messageId: "web", data });
        return;
      }
      if (!inSdk) return;
      if (!relative) {
        context.report({ node: lit, messageId: "entry", data });
        return;
      }
      const bare = target.replace(/\/index(\.ts|\.js)?$/, "");
      if (bare === SDK_SRC || (/(^|\/)(\.|\.\.|index(\.ts|\.js)?)$/.test(source) && inside(file, bare))) {
        context.report({ node: lit, messageId: bare === SDK_SRC ? "entry" : "barrel", data });
        return;
      }
      if (isTest || fromLayer === null) return;
      const to = layerOf(target);
      if (to === null) return;
      const fromRank = RANK.get(fromLayer);
      const toRank = RANK.get(to);
      if (toRank === undefined) {
        context.report({ node: lit, messageId: "unplaced", data: { name: to } });
        return;
      }
      if (fromRank !== undefined && toRank > fromRank) {
        context.report({ node: lit, messageId: "layer", data: { from: fromLayer, to } });
      }
    }

    return {
      Program(node) {
        if (inSdk && !isTest && fromLayer !== null && !RANK.has(fromLayer))
          context.report({ node, messageId: "unplaced", data: { name: fromLayer } });
      },
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
      TSImportType: check,
    };
  },
};

/** The local plugin: `plugins: { arrows }`, rule `arrows/arrows`. */
export default { rules: { arrows: rule } };
