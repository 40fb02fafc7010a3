/**
 * `npm run spec:bundle`: regenerates packages/testserver/spec-bundle.json,
 * the compact structure of the official Matrix definitions that the spec
 * validators read, from ../shared/matrix-spec (or the folder
 * LATTICE_MATRIX_SPEC names). Run it when the definitions change and commit
 * the result. `npm run spec:bundle -- --check` only says whether the
 * committed bundle is current (exit code 1 when it is not).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { tsImport } from "tsx/esm/api";

const { buildSpecBundle, serializeSpecBundle } = await tsImport(
  "../packages/testserver/src/spec/bundle-build.ts",
  import.meta.url,
);
const { SPEC_BUNDLE_PATH } = await tsImport("../packages/testserver/src/spec/bundle.ts", import.meta.url);
const { findSpecDataDir } = await tsImport("../packages/testserver/src/spec/locate.ts", import.meta.url);

let dataDir;
try {
  dataDir = findSpecDataDir();
} catch (err) {
  console.error(`${err.message}\nSet LATTICE_MATRIX_SPEC to a matrix-spec checkout (or its data/ folder).`);
  process.exit(2);
}

const text = serializeSpecBundle(buildSpecBundle(dataDir));
const where = relative(process.cwd(), SPEC_BUNDLE_PATH);
let current;
try {
  current = readFileSync(SPEC_BUNDLE_PATH, "utf8");
} catch {
  current = undefined;
}

if (process.argv.includes("--check")) {
  if (current === text) console.log(`${where} is current (${dataDir})`);
  else {
    console.error(`${where} is out of date with ${dataDir}: run npm run spec:bundle`);
    process.exit(1);
  }
} else if (current === text) {
  console.log(`${where} is already current (${dataDir})`);
} else {
  writeFileSync(SPEC_BUNDLE_PATH, text);
  console.log(`Wrote ${where} (${(text.length / 1024).toFixed(0)} KiB) from ${dataDir}`);
}
