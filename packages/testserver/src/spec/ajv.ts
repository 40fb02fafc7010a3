/**
 * The ajv instance used for every schema: JSON Schema 2020-12 (what the
 * OpenAPI 3.1 files and the event schemas declare), all errors collected,
 * standard formats from ajv-formats, Matrix's mx-* formats checked loosely by
 * sigil, and any other unknown format tolerated. Schemas are compiled once
 * and cached by the callers.
 */
import { Ajv2020 } from "ajv/dist/2020";
import { _ } from "ajv";
import type { ErrorObject, ValidateFunction } from "ajv";
import addFormatsImport from "ajv-formats";

// ajv-formats is CommonJS; under ESM its default export may arrive wrapped.
const addFormats =
  (addFormatsImport as unknown as { default?: typeof addFormatsImport }).default ?? addFormatsImport;

/** Matrix string formats (see data/string-formats.yaml), checked by their sigil only. */
const MATRIX_FORMATS: Record<string, RegExp> = {
  "mx-user-id": /^@[^:]*:.+$/,
  "mx-room-id": /^!/,
  "mx-event-id": /^\$/,
  "mx-room-alias": /^#[^:]*:.+$/,
  "mx-mxc-uri": /^mxc:\/\/[^/]+\/.+$/,
  "mx-server-name": /^\S+$/,
  "mx-unpadded-base64": /^[A-Za-z0-9+/]*$/,
  "mx-urlsafe-unpadded-base64": /^[A-Za-z0-9_-]*$/,
};

/**
 * The module name generated code (compiled.ts) asks for the formats by: the
 * loader answers with the live instance's formats, so no format has to be
 * expressible as code.
 */
export const FORMATS_MODULE = "lattice:ajv-formats";

/** Creates the shared ajv instance. */
export function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateFormats: true,
    logger: false,
    code: { source: true, formats: _`require(${FORMATS_MODULE})` },
  });
  addFormats(ajv);
  for (const [name, pattern] of Object.entries(MATRIX_FORMATS)) ajv.addFormat(name, pattern);
  // Numeric width hints carry no constraint we can check on a JS number.
  for (const name of ["int32", "int64", "float", "double"])
    ajv.addFormat(name, { type: "number", validate: () => true });
  return ajv;
}

export type { ValidateFunction };

/** Turns ajv errors into readable lines, each prefixed with where the value came from. */
export function formatErrors(where: string, errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const at = e.instancePath === "" ? "" : e.instancePath;
    const extra =
      e.keyword === "additionalProperties"
        ? ` (${String((e.params as { additionalProperty?: unknown }).additionalProperty)})`
        : e.keyword === "enum"
          ? ` (${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)})`
          : "";
    return `${where}${at} ${e.message ?? e.keyword}${extra}`;
  });
}
