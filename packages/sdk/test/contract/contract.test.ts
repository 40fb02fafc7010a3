/**
 * The contract runner: every case of every cases/*.contract.ts is
 * called against one loopback server (see run.ts and server.ts). The server
 * checks the request against the case's `expect` and, unless the case is
 * noSpec, against the official OpenAPI operation, and validates the canned
 * response against that operation's response schema; then the case's
 * `check` runs on the result. One test per case, named by the function.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSpecValidator } from "@lattice/testserver/spec";
import { collectCases } from "./collect";
import type { CollectedCase } from "./collect";
import { runCase } from "./run";
import { startContractServer } from "./server";
import type { ContractServer } from "./server";

const collected = collectCases();
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
        const problems = await runCase(server, contract);
        expect(problems, `${contract.name} (${file})\n  ${problems.join("\n  ")}`).toEqual([]);
      });
    }
  });
}
