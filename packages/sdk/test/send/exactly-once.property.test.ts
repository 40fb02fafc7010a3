/**
 * A property test of the send queue's promise: whatever pattern of 5xx,
 * dropped connections and lost answers (the server accepted, the client never
 * heard) the server shows, and however often the user resends, every room's
 * timeline ends with each message exactly once, in the order it was sent.
 * The scripted server de-duplicates by txn id, as a homeserver does.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SendQueue } from "../../src/send";
import { MemoryStore } from "../../src/store/MemoryStore";
import type { SyncState } from "../../src/sync/SyncLoop";
import { ObservableValue } from "../../src/util/observable";
import { FakeScheduler } from "../support/fake-scheduler";
import { networkError, ScriptedHttp, serverError, txnOf } from "./helpers";

type Fault = "ok" | "500" | "network" | "lost";

describe("exactly once, in order", () => {
  it("holds under any fault pattern", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom<Fault>("ok", "500", "network", "lost"), { maxLength: 40 }),
        fc.array(fc.constantFrom("!a:x", "!b:x"), { minLength: 1, maxLength: 8 }),
        async (faults, rooms) => {
          const http = new ScriptedHttp();
          const timelines = new Map<string, string[]>();
          const seen = new Map<string, string>();
          let request = 0;
          http.handler = (o) => {
            const fault = faults[request++] ?? "ok";
            if (fault === "500") return Promise.reject(serverError());
            if (fault === "network") return Promise.reject(networkError());
            const txn = txnOf(o);
            const roomId = decodeURIComponent(o.path.split("/")[2] ?? "");
            if (!seen.has(txn)) {
              seen.set(txn, `$${seen.size}`);
              const list = timelines.get(roomId) ?? [];
              list.push(String((o.body as { body: string }).body));
              timelines.set(roomId, list);
            }
            return fault === "lost"
              ? Promise.reject(networkError())
              : Promise.resolve({ event_id: seen.get(txn) });
          };
          const connection = new ObservableValue<SyncState | null>("syncing");
          const scheduler = new FakeScheduler([0.3]);
          const queue = new SendQueue({ http, store: new MemoryStore(), scheduler, connection });
          await queue.start();
          const expected = new Map<string, string[]>();
          const sent = rooms.map((roomId, i) => {
            expected.set(roomId, [...(expected.get(roomId) ?? []), `m${i}`]);
            return queue.send(roomId, "m.room.message", { body: `m${i}` });
          });
          for (let round = 0; round < 20; round++) {
            await scheduler.advance(120_000);
            // The user resends what failed; a reconnect re-queues what lacked a connection.
            for (const ev of sent) {
              const now = queue.get(ev.txnId);
              if (now?.status === "not_sent" && now.failure?.kind !== "blocked") queue.resend(ev.txnId);
            }
            connection.set("reconnecting");
            connection.set("syncing");
            if (sent.every((ev) => queue.get(ev.txnId)?.status === "sent")) break;
          }
          expect(sent.map((ev) => queue.get(ev.txnId)?.status)).toEqual(sent.map(() => "sent"));
          expect(timelines).toEqual(expected);
          queue.dispose();
        },
      ),
      { numRuns: 60 },
    );
  });
});
