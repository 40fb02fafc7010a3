/**
 * Runs one contract case against the contract server and returns every
 * problem found, as readable lines (empty = the case passes): differences
 * from `expect`, spec violations of the request and the canned response, a
 * wrong number of requests, a call that threw on a success status, and a
 * failed `check`. A case whose canned status is an error may reject: `check`
 * then receives the thrown error instead of a result.
 */
import { createHttpClient } from "../../src/http";
import type { ContractServer } from "./server";
import type { ContractCase } from "./types";

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : JSON.stringify(err);
}

export async function runCase(server: ContractServer, contract: ContractCase): Promise<string[]> {
  const record = server.arm(contract);
  const http = createHttpClient({ baseUrl: server.baseUrl, accessToken: "contract-token", retry: false });
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
    const seen = record.requests.map((r) => `${r.method} ${r.path}`).join(", ");
    problems.push(`expected one request, got ${record.requests.length}: ${seen}`);
  }
  if (thrown !== undefined && status < 400) problems.push(`the call threw: ${errorText(thrown)}`);
  if (problems.length === 0) {
    try {
      contract.check?.(thrown ?? outcome);
    } catch (err) {
      problems.push(`check failed: ${errorText(err)}`);
    }
  }
  return problems;
}
