/**
 * The contract runner: every case of every src/api/**\/*.contract.ts is
 * called against one loopback server. The server checks the request against
 * the case's `expect` and, unless the case is noSpec, against the official
 * OpenAPI operation, and validates the canned response against that
 * operation's response schema; then the case's `check` runs on the result.
 * A case whose canned status is an error may reject: `check` then receives
 * the thrown error instead of a result.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSpecValidator } from "@lattice/testserver/spec";
import { createHttpClient } from "../../src/http";
import { collectCases } from "./collect";
import type { CollectedCase } from "./collect";
import { startContractServer } from "./server";
import type { ContractServer } from "./server";

const collected = collectCases();

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : JSON.stringify(err);
}
const byFile = new Map<string, CollectedCase[]>();
for (const c of collected) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);

let server: ContractServer;
beforeAll(async () => {
  server = await startContractServer(getSpecValidator());
});
afterAll(async () => {
  await server.close();
});

it("finds contract cases", () => {
  expect(collected.length).toBeGreaterThan(0);
});

for (const [file, cases] of byFile) {
  describe(file, () => {
    for (const { contract } of cases) {
      it(`${contract.name}: ${contract.expect.method} ${contract.expect.path}`, async () => {
        const record = server.arm(contract);
        const http = createHttpClient({
          baseUrl: server.baseUrl,
          accessToken: "contract-token",
          retry: false,
        });
        const status = contract.response.status ?? 200;
        let outcome: unknown;
        let thrown: unknown;
        try {
          outcome = await contract.call(http);
        } catch (err) {
          thrown = err;
        }
        const problems = [...record.errors];
        if (record.requests.length === 0) problems.push("no request reached the server");
        if (record.requests.length > 1) {
          problems.push(
            `expected one request, got ${record.requests.length}: ${record.requests.map((r) => `${r.method} ${r.path}`).join(", ")}`,
          );
        }
        if (thrown !== undefined && status < 400) problems.push(`the call threw: ${errorText(thrown)}`);
        if (problems.length === 0) {
          try {
            contract.check?.(thrown ?? outcome);
          } catch (err) {
            problems.push(`check failed: ${errorText(err)}`);
          }
        }
        expect(problems, `${contract.name} (${file})\n  ${problems.join("\n  ")}`).toEqual([]);
      });
    }
  });
}
