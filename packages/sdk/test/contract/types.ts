/**
 * The shape of one contract case. API families declare their cases in
 * `packages/sdk/test/contract/cases/<family>.contract.ts` (an exported `cases` array);
 * the contract runner calls each API function against a loopback server that
 * validates the request and the canned response against the official
 * OpenAPI definitions (the spec bundle of @lattice/testserver/spec), and the
 * coverage test checks that every call of SPEC §7 has a case.
 */
import type { HttpApi, HttpMethod } from "../../src/http/types";

export interface ContractCase {
  /** The API function exercised, e.g. "sendEvent". */
  name: string;
  /** Performs the call against the HttpApi the runner provides. */
  call: (http: HttpApi) => Promise<unknown>;
  /** What the server must receive. `path` is the full path with prefix, already encoded. */
  expect: {
    method: HttpMethod;
    path: string;
    /** Query parameters the request must carry (each compared as a string); others are allowed only if listed here. */
    query?: Record<string, string | string[]>;
    /** JSON body the request must carry (deep equality). */
    body?: unknown;
  };
  /** The answer the loopback server gives; validated against the operation's response schema. */
  response: {
    status?: number;
    body?: unknown;
    /** Raw response for media downloads. */
    raw?: { contentType: string; data: Uint8Array };
  };
  /** Assertions on what the API function returned. */
  check?: (result: unknown) => void;
  /**
   * Set when the Matrix definitions have no operation for this call (unstable
   * MSC endpoints, Synapse admin, well-known): the reason, shown in the report.
   * The request is then checked against `expect` only.
   */
  noSpec?: string;
}
