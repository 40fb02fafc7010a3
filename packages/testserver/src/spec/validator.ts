/**
 * Validates requests and responses against the OpenAPI operations of the
 * official Matrix definitions: path parameters, query parameters (coerced
 * from strings to their schema types), the JSON request body, and a response
 * by status code (exact, NXX, or default) and content type. Results are
 * lists of readable errors; an empty list means valid. The definitions come
 * from the committed spec bundle (bundle.ts), so validation is the same with
 * or without ../shared beside the clone. Compiled schemas are cached by
 * schema identity, so each is compiled once per process, and on disk as
 * generated code (compiled.ts), so each is compiled once per machine.
 */
import type { Ajv2020 } from "ajv/dist/2020";
import { createAjv, formatErrors } from "./ajv";
import { CompiledSchemaCache } from "./compiled";
import type { ValidateFunction } from "./ajv";
import { loadSpecBundle } from "./bundle";
import type { SpecBundle } from "./bundle";
import { OperationIndex } from "./operations";
import type { Operation, OperationMatch } from "./operations";

/** Query parameters as a request carries them. */
export type QueryInput = URLSearchParams | Readonly<Record<string, string | readonly string[] | undefined>>;

/** A request to validate. */
export interface SpecRequest {
  method: string;
  /** Concrete path with prefix, still URL-encoded; a query part is ignored. */
  path: string;
  query?: QueryInput;
  /** Parsed JSON body, or undefined for none. */
  body?: unknown;
  /** The request's Content-Type; a non-JSON type means a raw body (uploads), which is not checked. */
  contentType?: string;
}

/** A response to validate. */
export interface SpecResponse {
  status: number;
  /** Parsed JSON body, or undefined for none or a raw body. */
  body?: unknown;
  contentType?: string;
}

/** How strictly to check a response. */
export interface ResponseCheckOptions {
  /**
   * Accept an error status the operation does not list (400 on /sync, 413 on
   * send, 429 anywhere) when its body is a standard Matrix error (a string
   * errcode, and a string error if present), as every endpoint may give one.
   */
  standardErrors?: boolean;
}

/** The standard error body every endpoint may answer with (client-server API, "Standard error response"). */
const STANDARD_ERROR: Schema = {
  type: "object",
  properties: { errcode: { type: "string" }, error: { type: "string" } },
  required: ["errcode"],
};

/** The outcome: the operation found (if any) and readable errors (empty = valid). */
export interface ValidationResult {
  operation?: Operation;
  errors: string[];
}

export interface SpecValidatorOptions {
  /** The definitions; the committed spec bundle by default (see bundle.ts). */
  bundle?: SpecBundle;
  /**
   * Which undeclared query parameters are fine. By default namespaced
   * (unstable, e.g. org.matrix.msc4222.use_state_after) and underscore-led
   * (cache busters) names are; anything else is reported.
   */
  allowUnknownQuery?: (name: string) => boolean;
}

type Schema = Record<string, unknown>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Parameters the current definitions dropped but servers still read, which
 * the SDK keeps sending for them: server_name on join and knock (replaced by
 * via in Matrix 1.14, MSC4156).
 */
const LEGACY_QUERY: Readonly<Record<string, readonly string[]>> = {
  joinRoom: ["server_name"],
  knockRoom: ["server_name"],
};

const defaultAllowUnknownQuery = (name: string): boolean => name.includes(".") || name.startsWith("_");

function typesOf(schema: Schema): string[] {
  const t = schema["type"];
  return Array.isArray(t)
    ? t.filter((x): x is string => typeof x === "string")
    : typeof t === "string"
      ? [t]
      : [];
}

/** Converts a query or path string to the type its schema wants, when it can. */
function coerce(value: string, schema: Schema): unknown {
  const types = typesOf(schema);
  if ((types.includes("integer") || types.includes("number")) && /^-?\d+(\.\d+)?$/.test(value))
    return Number(value);
  if (types.includes("boolean") && (value === "true" || value === "false")) return value === "true";
  return value;
}

function queryValues(query: QueryInput | undefined, name: string): string[] {
  if (!query) return [];
  if (query instanceof URLSearchParams) return query.getAll(name);
  if (!Object.hasOwn(query, name)) return [];
  const v = query[name];
  return v === undefined ? [] : typeof v === "string" ? [v] : [...v];
}

function queryNames(query: QueryInput | undefined): string[] {
  if (!query) return [];
  if (query instanceof URLSearchParams) return [...new Set(query.keys())];
  return Object.keys(query).filter((k) => query[k] !== undefined);
}

function isJsonType(contentType: string | undefined): boolean {
  return contentType === undefined || /^application\/([\w.+-]*\+)?json\b/i.test(contentType);
}

/** Validates requests and responses against one set of definitions. */
export class SpecValidator {
  readonly index: OperationIndex;
  private readonly ajv: Ajv2020 = createAjv();
  private readonly compiled = new WeakMap<object, ValidateFunction>();
  private readonly onDisk = new CompiledSchemaCache(this.ajv);
  private readonly allowUnknownQuery: (name: string) => boolean;

  constructor(options: SpecValidatorOptions = {}) {
    this.index = new OperationIndex((options.bundle ?? loadSpecBundle()).operations);
    this.allowUnknownQuery = options.allowUnknownQuery ?? defaultAllowUnknownQuery;
  }

  /** Every documented operation. */
  get operations(): readonly Operation[] {
    return this.index.operations;
  }

  /** The operation for a concrete request, or undefined. */
  find(method: string, path: string): OperationMatch | undefined {
    return this.index.find(method, path);
  }

  /** Validates `value` against `schema`, returning readable errors prefixed with `where`. */
  check(schema: unknown, value: unknown, where: string): string[] {
    if (!isRecord(schema)) return [];
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.onDisk.compile(schema);
      this.compiled.set(schema, validate);
    }
    return validate(value) ? [] : formatErrors(where, validate.errors);
  }

  /** Validates a request; where a path has two definitions, the better fit counts. */
  validateRequest(req: SpecRequest): ValidationResult {
    const matches = this.index.findAll(req.method, req.path);
    if (matches.length === 0) {
      return { errors: [`No operation in the Matrix spec for ${req.method.toUpperCase()} ${req.path}`] };
    }
    return best(matches.map((m) => ({ operation: m.operation, errors: this.requestErrors(m, req) })));
  }

  private requestErrors({ operation, params }: OperationMatch, req: SpecRequest): string[] {
    const errors: string[] = [];
    const declared = new Set<string>(LEGACY_QUERY[operation.operationId] ?? []);
    let freeForm: { name: string; schema: Schema } | undefined;
    const parameters = Array.isArray(operation.spec["parameters"]) ? operation.spec["parameters"] : [];
    for (const p of parameters) {
      if (!isRecord(p) || typeof p["name"] !== "string") continue;
      const name = p["name"];
      const schema = isRecord(p["schema"]) ? p["schema"] : {};
      if (p["in"] === "path") {
        const value = params[name];
        if (value === undefined) errors.push(`path parameter ${name} is missing`);
        else errors.push(...this.check(schema, coerce(value, schema), `path parameter ${name}`));
      } else if (p["in"] === "query") {
        if (typesOf(schema).includes("object")) {
          // style=form, explode=true: the object's fields arrive as separate parameters.
          freeForm = { name, schema };
          continue;
        }
        declared.add(name);
        const values = queryValues(req.query, name);
        if (values.length === 0) {
          if (p["required"] === true) errors.push(`query parameter ${name} is required`);
          continue;
        }
        const isArray = typesOf(schema).includes("array");
        const items = isRecord(schema["items"]) ? schema["items"] : {};
        const value = isArray
          ? values.map((v) => coerce(v, items))
          : coerce(values[values.length - 1] ?? "", schema);
        if (!isArray && values.length > 1)
          errors.push(`query parameter ${name} is given ${values.length} times`);
        errors.push(...this.check(schema, value, `query parameter ${name}`));
      }
    }
    const undeclared = queryNames(req.query).filter((name) => !declared.has(name));
    if (freeForm) {
      const fields: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const name of undeclared) fields[name] = queryValues(req.query, name).at(-1);
      errors.push(...this.check(freeForm.schema, { ...fields }, `query parameter ${freeForm.name}`));
    } else {
      for (const name of undeclared) {
        if (!this.allowUnknownQuery(name))
          errors.push(`query parameter ${name} is not defined for ${operation.operationId}`);
      }
    }
    errors.push(...this.checkRequestBody(operation, req));
    return errors;
  }

  private checkRequestBody(operation: Operation, req: SpecRequest): string[] {
    const requestBody = operation.spec["requestBody"];
    const content =
      isRecord(requestBody) && isRecord(requestBody["content"]) ? requestBody["content"] : undefined;
    const json = content ? content["application/json"] : undefined;
    const hasBody = req.body !== undefined;
    if (!isJsonType(req.contentType)) {
      if (content && !json) return [];
      return [`request Content-Type ${req.contentType} is not documented for ${operation.operationId}`];
    }
    if (!content) {
      const empty = isRecord(req.body) && Object.keys(req.body).length === 0;
      return hasBody && !empty ? [`${operation.operationId} takes no request body`] : [];
    }
    if (!hasBody) {
      return isRecord(requestBody) && requestBody["required"] === true ? ["request body is required"] : [];
    }
    if (!isRecord(json)) return [`request body must not be JSON for ${operation.operationId}`];
    return this.check(json["schema"], req.body, "request body");
  }

  /** Validates a response to `req` (method and path); where a path has two definitions, the better fit counts. */
  validateResponse(
    req: Pick<SpecRequest, "method" | "path">,
    res: SpecResponse,
    options: ResponseCheckOptions = {},
  ): ValidationResult {
    const matches = this.index.findAll(req.method, req.path);
    if (matches.length === 0) {
      return { errors: [`No operation in the Matrix spec for ${req.method.toUpperCase()} ${req.path}`] };
    }
    return best(
      matches.map((m) => ({
        operation: m.operation,
        errors: this.responseErrors(m.operation, res, options),
      })),
    );
  }

  private responseErrors(operation: Operation, res: SpecResponse, options: ResponseCheckOptions): string[] {
    const responses = isRecord(operation.spec["responses"]) ? operation.spec["responses"] : {};
    const entry =
      responses[String(res.status)] ?? responses[`${Math.floor(res.status / 100)}XX`] ?? responses["default"];
    if (!isRecord(entry)) {
      if (options.standardErrors && res.status >= 400) {
        return this.check(STANDARD_ERROR, res.body, `response ${res.status} body`);
      }
      return [`response status ${res.status} is not documented for ${operation.operationId}`];
    }
    const content = isRecord(entry["content"]) ? entry["content"] : undefined;
    const where = `response ${res.status} body`;
    if (!isJsonType(res.contentType)) {
      const types = content ? Object.keys(content) : [];
      const fits = types.some((t) => t === "*/*" || !isJsonType(t));
      return fits ? [] : [`response Content-Type ${res.contentType} is not documented (${types.join(", ")})`];
    }
    const json = content ? content["application/json"] : undefined;
    if (!isRecord(json)) {
      return res.body === undefined
        ? []
        : [`${where} is JSON, but ${operation.operationId} documents no JSON here`];
    }
    if (res.body === undefined) return [`${where} is missing`];
    return this.check(json["schema"], res.body, where);
  }
}

/** The result with the fewest errors (the first on a tie). */
function best(results: Array<{ operation: Operation; errors: string[] }>): ValidationResult {
  return results.reduce((a, b) => (b.errors.length < a.errors.length ? b : a));
}

let shared: SpecValidator | undefined;

/** The process-wide validator of the committed bundle (compiling is costly; share it). */
export function getSpecValidator(): SpecValidator {
  shared ??= new SpecValidator();
  return shared;
}
