/**
 * Compiled validators cached on disk as ajv standalone code. Compiling the
 * schemas a test file touches (sync, messages, the event schemas...) costs
 * about a second of CPU, and every test file used to pay it again; loading
 * the generated code back costs milliseconds. An entry is keyed by the
 * schema (its JSON, or a name the caller vouches for) and by the ajv
 * version and the source of ajv.ts and this file, so a change to the
 * compiler settings builds new entries. Formats are not in the generated
 * code: it asks for them by name from the live ajv instance.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileFunction } from "node:vm";
import type { Ajv2020 } from "ajv/dist/2020";
import standaloneImport from "ajv/dist/standalone";
import { FORMATS_MODULE } from "./ajv";
import type { ValidateFunction } from "./ajv";
import { specCacheDir, writeCacheFile } from "./cache";

// ajv's standalone module is CommonJS; under ESM its default export may arrive wrapped.
const standaloneCode =
  (standaloneImport as unknown as { default?: typeof standaloneImport }).default ?? standaloneImport;

const nodeRequire = createRequire(import.meta.url);

/** What decides the generated code besides the schema: the compiler and its settings. */
function compilerSalt(): string | undefined {
  try {
    const hash = createHash("sha256");
    hash.update(String((nodeRequire("ajv/package.json") as { version?: unknown }).version));
    for (const source of ["./ajv.ts", "./compiled.ts"]) {
      hash.update(readFileSync(fileURLToPath(new URL(source, import.meta.url))));
    }
    return hash.digest("hex");
  } catch {
    return undefined;
  }
}

let salt: string | undefined | null = null;

/** Compiles schemas through one ajv instance (made by createAjv), reusing code from earlier processes. */
export class CompiledSchemaCache {
  private readonly dir: string | undefined;

  constructor(private readonly ajv: Ajv2020) {
    if (salt === null) salt = compilerSalt();
    this.dir = salt === undefined ? undefined : specCacheDir();
  }

  /** Compiles `schema`, keyed by its content. */
  compile(schema: object): ValidateFunction {
    return this.compileKeyed(JSON.stringify(schema), () => schema);
  }

  /**
   * Compiles the schema `make` builds, keyed by `key` alone: the caller
   * promises that the same key always makes the same schema (a name plus
   * the spec cache key), so a hit never builds the schema at all.
   */
  compileKeyed(key: string, make: () => object): ValidateFunction {
    if (this.dir === undefined) return this.ajv.compile(make());
    const digest = createHash("sha256")
      .update(`${salt ?? ""}\n${key}`)
      .digest("hex")
      .slice(0, 40);
    const file = join(this.dir, `ajv-${digest}.cjs`);
    let code: string | undefined;
    try {
      code = readFileSync(file, "utf8");
    } catch {
      // Not compiled before.
    }
    if (code !== undefined) {
      const loaded = this.load(code);
      if (loaded) return loaded;
    }
    const validate = this.ajv.compile(make());
    writeCacheFile(file, standaloneCode(this.ajv, validate));
    return validate;
  }

  /** Runs generated CommonJS code; undefined when it does not yield a function (a damaged entry). */
  private load(code: string): ValidateFunction | undefined {
    const module = { exports: {} as unknown };
    const require = (id: string): unknown => (id === FORMATS_MODULE ? this.ajv.formats : nodeRequire(id));
    try {
      const run = compileFunction(code, ["require", "module", "exports"]) as (
        require: (id: string) => unknown,
        module: { exports: unknown },
        exports: unknown,
      ) => void;
      run(require, module, module.exports);
    } catch {
      return undefined;
    }
    return typeof module.exports === "function" ? (module.exports as ValidateFunction) : undefined;
  }
}
