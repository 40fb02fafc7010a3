/**
 * Properties of the OIDC validators on hostile documents: the
 * authorization server metadata (the issuer's openid-configuration and the
 * homeserver's auth_metadata, one rule set) and the bearer token response.
 * Each states an outcome: rejected with SPEC §8's message, or accepted with
 * the checked fields as sent (unknown fields kept unchanged, account
 * management fields of the wrong type dropped). Seeded (seed.ts); 4,300
 * cases.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OidcError, validateBearerTokenResponse, validateServerMetadata } from "../../src/auth/oidc";
import { seeded } from "./seed";

const ISSUER = "https://auth.example.org/";
const MISCONFIGURED = "OIDC is misconfigured";
const OP_SUPPORT = "Configured OIDC OP does not support required functions";
const INVALID_BEARER = "Invalid bearer token response";

const BASE: Record<string, unknown> = {
  issuer: ISSUER,
  authorization_endpoint: "https://auth.example.org/authorize",
  token_endpoint: "https://auth.example.org/token",
  revocation_endpoint: "https://auth.example.org/revoke",
  jwks_uri: "https://auth.example.org/jwks",
  response_types_supported: ["code"],
  grant_types_supported: ["authorization_code", "refresh_token"],
  code_challenge_methods_supported: ["S256"],
};

/** Which document: the issuer's (its issuer fixed, jwks_uri required) or the homeserver's. */
const kind = fc.constantFrom({ expectedIssuer: ISSUER, requireJwks: true }, { requireJwks: false } as {
  expectedIssuer?: string;
  requireJwks: boolean;
});

/** The outcome as data: the value, or the error's message. */
function outcome<T>(fn: () => T): { ok: T } | { rejected: string } {
  try {
    return { ok: fn() };
  } catch (e) {
    if (!(e instanceof OidcError)) throw e;
    return { rejected: e.message };
  }
}

function isHttpUrl(v: unknown): boolean {
  if (typeof v !== "string" || !URL.canParse(v)) return false;
  const p = new URL(v).protocol;
  return p === "https:" || p === "http:";
}

/** Values that are not http(s) URLs, hostile ones included. */
const notHttpUrl = fc
  .oneof(
    fc.string({ maxLength: 20 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.string(), { maxLength: 2 }),
    fc.constantFrom(
      "javascript:alert(1)",
      "data:text/html,x",
      "ftp://auth.example.org/",
      "//auth.example.org/x",
    ),
    fc.webUrl().map((u) => u.replace(/^https?:/, "file:")),
  )
  .filter((v) => !isHttpUrl(v));

const KNOWN = new Set([
  ...Object.keys(BASE),
  "registration_endpoint",
  "userinfo_endpoint",
  "scopes_supported",
  "response_modes_supported",
  "account_management_uri",
  "account_management_actions_supported",
  "prompt_values_supported",
]);

describe("authorization server metadata", () => {
  it("keeps unknown fields unchanged and the checked ones as sent", () => {
    const extra = fc.dictionary(
      fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !KNOWN.has(k)),
      fc.jsonValue({ maxDepth: 2 }),
      { maxKeys: 5 },
    );
    fc.assert(
      fc.property(kind, extra, (check, fields) => {
        const doc = JSON.parse(JSON.stringify({ ...BASE, ...fields })) as Record<string, unknown>;
        const result = outcome(() => validateServerMetadata(doc, check));
        const expected = { ...doc, response_modes_supported: ["query", "fragment"] };
        expect(result).toEqual({ ok: expected });
      }),
      seeded(600),
    );
  });

  it("'OIDC is misconfigured' when a required endpoint is missing or not an http(s) URL", () => {
    const field = fc.constantFrom(
      "authorization_endpoint",
      "token_endpoint",
      "revocation_endpoint",
      "jwks_uri",
    );
    fc.assert(
      fc.property(kind, field, fc.option(notHttpUrl, { nil: undefined }), (check, name, value) => {
        const doc: Record<string, unknown> = { ...BASE, [name]: value };
        if (value === undefined) delete doc[name];
        const result = outcome(() => validateServerMetadata(doc, check));
        if (name === "jwks_uri" && !check.requireJwks) expect(result).toHaveProperty("ok");
        else expect(result).toEqual({ rejected: MISCONFIGURED });
      }),
      seeded(800),
    );
  });

  it("accepts capability lists iff they show code, authorization_code, refresh_token, S256 and query or fragment", () => {
    /** Per list: its good value in BASE, or (half the time) a hostile replacement: absent, not a list, or a random list. */
    const pool = [
      "code",
      "token",
      "authorization_code",
      "refresh_token",
      "implicit",
      "S256",
      "plain",
      "query",
      "fragment",
      "form_post",
    ];
    const replacement = fc.oneof(
      { weight: 1, arbitrary: fc.constant<unknown>("absent") },
      {
        weight: 1,
        arbitrary: fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant(["code", 5])),
      },
      {
        weight: 4,
        arbitrary: fc.array(fc.oneof(fc.constantFrom(...pool), fc.string({ maxLength: 8 })), {
          maxLength: 5,
        }),
      },
      { weight: 4, arbitrary: fc.subarray(pool) },
    );
    const keep = (field: string) =>
      fc
        .option(replacement, { freq: 2, nil: undefined })
        .map((r) => (r === undefined ? BASE[field] : r === "absent" ? undefined : r));
    const lists = fc.record({
      response_types_supported: keep("response_types_supported"),
      grant_types_supported: keep("grant_types_supported"),
      response_modes_supported: fc.oneof(fc.constant<unknown>(undefined), keep("response_modes_supported")),
      code_challenge_methods_supported: keep("code_challenge_methods_supported"),
    });
    fc.assert(
      fc.property(kind, lists, (check, given) => {
        const doc: Record<string, unknown> = { ...BASE, ...given };
        for (const [k, v] of Object.entries(given)) if (v === undefined) delete doc[k];
        const isList = (v: unknown): v is string[] =>
          Array.isArray(v) && v.every((x) => typeof x === "string");
        const effective = {
          response_types_supported: given.response_types_supported,
          // RFC 8414's defaults stand in for absent lists only (null is a list of the wrong type).
          grant_types_supported:
            given.grant_types_supported === undefined
              ? ["authorization_code", "implicit"]
              : given.grant_types_supported,
          response_modes_supported:
            given.response_modes_supported === undefined
              ? ["query", "fragment"]
              : given.response_modes_supported,
          code_challenge_methods_supported:
            given.code_challenge_methods_supported === undefined
              ? []
              : given.code_challenge_methods_supported,
        };
        const ok =
          Object.values(effective).every(isList) &&
          (effective.response_types_supported as string[]).includes("code") &&
          (effective.grant_types_supported as string[]).includes("authorization_code") &&
          (effective.grant_types_supported as string[]).includes("refresh_token") &&
          (effective.code_challenge_methods_supported as string[]).includes("S256") &&
          (effective.response_modes_supported as string[]).some((m) => m === "query" || m === "fragment");
        const result = outcome(() => validateServerMetadata(doc, check));
        expect(result).toEqual(ok ? { ok: { ...doc, ...effective } } : { rejected: OP_SUPPORT });
      }),
      seeded(1200),
    );
  });

  it("keeps account management fields iff well-typed, and drops them otherwise", () => {
    const uri = fc.oneof(notHttpUrl, fc.webUrl());
    const actions = fc.oneof(
      fc.array(fc.string({ maxLength: 30 }), { maxLength: 4 }),
      fc.oneof(
        fc.string(),
        fc.integer(),
        fc.constant(null),
        fc.array(fc.oneof(fc.string(), fc.integer()), { minLength: 1, maxLength: 3 }),
      ),
    );
    fc.assert(
      fc.property(kind, uri, actions, (check, u, a) => {
        const doc = { ...BASE, account_management_uri: u, account_management_actions_supported: a };
        const result = outcome(() => validateServerMetadata(doc, check));
        if (!("ok" in result)) throw new Error(`rejected: ${result.rejected}`);
        const validActions = Array.isArray(a) && a.every((x) => typeof x === "string");
        expect(result.ok["account_management_uri"]).toBe(u === null || !isHttpUrl(u) ? undefined : u);
        expect(result.ok["account_management_actions_supported"]).toEqual(validActions ? a : undefined);
        expect(Object.hasOwn(result.ok, "account_management_actions_supported")).toBe(validActions);
      }),
      seeded(500),
    );
  });
});

describe("bearer token response", () => {
  it("is accepted exactly as sent iff every field is well-formed, else 'Invalid bearer token response'", () => {
    /** A good response, with each field (a third of the time) replaced by a hostile value or removed. */
    const good: Record<string, unknown> = {
      token_type: "Bearer",
      access_token: "at",
      refresh_token: "rt",
      expires_in: 300,
      id_token: "x.y.z",
      scope: "openid",
    };
    const hostile = fc.oneof(
      fc.constantFrom<unknown>(
        undefined,
        null,
        "",
        "bearer",
        "BEARER",
        "mac",
        "bearer ",
        0,
        -0,
        0.5,
        -1,
        1e21,
      ),
      fc.constantFrom<unknown>(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1),
      fc.integer({ min: -100_000, max: 100_000 }),
      fc.double({ noNaN: true }),
      fc.string({ maxLength: 10 }),
      fc.boolean(),
      fc.array(fc.string(), { maxLength: 2 }),
    );
    const body = fc.record(
      Object.fromEntries(
        Object.keys(good).map((k) => [
          k,
          fc.option(hostile, { freq: 3, nil: "keep" as const }).map((v) => (v === "keep" ? good[k] : v)),
        ]),
      ),
    );
    fc.assert(
      fc.property(body, (b) => {
        const sent = JSON.parse(JSON.stringify(b)) as Record<string, unknown>;
        const t = sent["token_type"];
        const e = sent["expires_in"];
        const ok =
          typeof t === "string" &&
          t.toLowerCase() === "bearer" &&
          typeof sent["access_token"] === "string" &&
          sent["access_token"] !== "" &&
          typeof sent["refresh_token"] === "string" &&
          sent["refresh_token"] !== "" &&
          typeof e === "number" &&
          Number.isSafeInteger(e) &&
          e > 0 &&
          (sent["id_token"] === undefined || typeof sent["id_token"] === "string") &&
          (sent["scope"] === undefined || typeof sent["scope"] === "string");
        expect(outcome(() => validateBearerTokenResponse(sent))).toEqual(
          ok ? { ok: sent } : { rejected: INVALID_BEARER },
        );
      }),
      seeded(1200),
    );
  });
});
