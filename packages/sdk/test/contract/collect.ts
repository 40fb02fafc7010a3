/// <reference types="vite/client" />
/**
 * Collects the contract cases every API family declares: the exported
 * `cases` array of each packages/sdk/test/contract/cases/*.contract.ts, found by
 * Vite's import.meta.glob, so a new family is picked up without a list.
 */
import type { ContractCase } from "./types";

/** One case and the file it came from (relative to cases/). */
export interface CollectedCase {
  file: string;
  contract: ContractCase;
}

/** Every case of every contract file, in file order. */
export function collectCases(): CollectedCase[] {
  const modules = import.meta.glob<{ cases?: unknown }>("./cases/*.contract.ts", { eager: true });
  const out: CollectedCase[] = [];
  for (const [path, mod] of Object.entries(modules).sort(([a], [b]) => a.localeCompare(b))) {
    const file = path.replace(/^.*\/cases\//, "");
    if (!Array.isArray(mod.cases)) throw new Error(`${file} has no exported \`cases\` array`);
    for (const contract of mod.cases as ContractCase[]) out.push({ file, contract });
  }
  return out;
}
