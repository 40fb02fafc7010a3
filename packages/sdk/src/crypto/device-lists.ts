/**
 * The engine's side of device lists outside a sync batch: the catch-up
 * after a span of syncing the engine did not see (GET /keys/changes between
 * two sync v2 tokens, handed to the engine as if a batch had reported it),
 * and the parse of the engine's decrypted to-device output.
 */
import type { OlmMachine } from "@matrix-org/matrix-sdk-crypto-wasm";
import { getKeyChanges } from "../api/keys";
import type { ToDeviceEvent } from "../api/types/events";
import type { HttpApi } from "../http/types";
import { userIds } from "./ids";
import type { Engine } from "./load";
import type { OutgoingRequests } from "./OutgoingRequests";

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** One item of the engine's to-device output as an event, or null when it is malformed. */
export function parseToDeviceItem(item: unknown): ToDeviceEvent | null {
  if (!isObject(item)) return null;
  const { type, sender, content } = item;
  return typeof type === "string" && typeof sender === "string" && isObject(content)
    ? { type, sender, content }
    : null;
}

/** Keeps only well-formed to-device events from the engine's output. */
export function parseToDevice(json: string): ToDeviceEvent[] {
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) return [];
  const out: ToDeviceEvent[] = [];
  for (const item of parsed as unknown[]) {
    const event = parseToDeviceItem(item);
    if (event) out.push(event);
  }
  return out;
}

/** What the catch-up needs of the machine. */
export interface CatchUpDeps {
  engine: Engine;
  machine: OlmMachine;
  http: HttpApi;
  outgoing: OutgoingRequests;
}

/**
 * Asks GET /keys/changes which users' devices changed between two sync
 * tokens and tells the engine, which queries them again; waits for the
 * queries to be sent.
 */
export async function catchUpDeviceChanges(deps: CatchUpDeps, from: string, to: string): Promise<void> {
  const { engine, machine, http, outgoing } = deps;
  const changes = await getKeyChanges(http, from, to);
  const strings = (v: unknown): string[] =>
    Array.isArray(v) ? (v as unknown[]).filter((u): u is string => typeof u === "string") : [];
  const lists = new engine.DeviceLists(
    userIds(engine, strings(changes.changed)),
    userIds(engine, strings(changes.left)),
  );
  // No key counts: the engine leaves one-time keys alone when it is told none.
  await machine.receiveSyncChanges("[]", lists, new Map());
  await outgoing.run();
}
