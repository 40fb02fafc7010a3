/**
 * Contract cases of GET /_matrix/client/versions (no prefix).
 */
import type { ContractCase } from "../types";
import * as api from "../../../src/api/versions";

export const cases: ContractCase[] = [
  {
    name: "getVersions",
    call: (http) => api.getVersions(http, { timeoutMs: 15_000 }),
    expect: { method: "GET", path: "/_matrix/client/versions" },
    response: {
      body: {
        versions: ["r0.0.1", "v1.1", "v1.11", "v1.16"],
        unstable_features: { "org.example.my_feature": true },
      },
    },
    check: (result) => {
      const versions = result as { versions: string[] };
      if (!api.supportsVersion(versions, "v1.11"))
        throw new Error("v1.11 not read from the versions document");
    },
  },
];
