/**
 * Every event the rooms domain writes while building a busy room (create,
 * members, power levels, join rules, history visibility, guest access,
 * aliases, names, topics, messages, relations, redactions, tombstones,
 * space children) validates against its event schema in the spec.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "../../src";
import type { TestServerHandle } from "../../src";
import { EventValidator } from "../../src/spec";
import { api, registerUser, V3 } from "../helpers";
import type { TestUser } from "../helpers";

type Obj = Record<string, unknown>;

let server: TestServerHandle;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  server = await startTestServer({ seed: 37 });
  alice = await registerUser(server, "alice");
  bob = await registerUser(server, "bob");
});
afterAll(() => server.stop());

const e = encodeURIComponent;

describe("event schemas", () => {
  it("validates every event of a busy room as clients receive it", async () => {
    const roomId = String(
      (
        await api(server, alice, "POST", `${V3}/createRoom`, {
          preset: "public_chat",
          name: "Schemas",
          topic: "all of them",
          room_alias_name: "schemas",
          invite: [bob.userId],
          is_direct: true,
        })
      ).body["room_id"],
    );
    const r = e(roomId);
    await api(server, bob, "POST", `${V3}/join/${r}`, {});
    const msg = await api(server, alice, "PUT", `${V3}/rooms/${r}/send/m.room.message/1`, {
      msgtype: "m.text",
      body: "hi",
    });
    const id = String(msg.body["event_id"]);
    await api(server, bob, "PUT", `${V3}/rooms/${r}/send/m.reaction/2`, {
      "m.relates_to": { rel_type: "m.annotation", event_id: id, key: "👍" },
    });
    await api(server, alice, "PUT", `${V3}/rooms/${r}/send/m.room.message/3`, {
      msgtype: "m.text",
      body: "* hi!",
      "m.new_content": { msgtype: "m.text", body: "hi!" },
      "m.relates_to": { rel_type: "m.replace", event_id: id },
    });
    await api(server, bob, "PUT", `${V3}/rooms/${r}/send/m.room.message/4`, {
      msgtype: "m.text",
      body: "thread",
      "m.relates_to": { rel_type: "m.thread", event_id: id },
    });
    const doomed = await api(server, bob, "PUT", `${V3}/rooms/${r}/send/m.room.message/5`, {
      msgtype: "m.text",
      body: "bye",
    });
    await api(server, bob, "PUT", `${V3}/rooms/${r}/redact/${e(String(doomed.body["event_id"]))}/6`, {
      reason: "typo",
    });
    await api(server, alice, "PUT", `${V3}/rooms/${r}/state/m.space.child/${e("!child:localhost")}`, {
      via: ["localhost"],
    });
    await api(server, alice, "POST", `${V3}/rooms/${r}/invite`, {
      id_server: "id.example",
      id_access_token: "t",
      medium: "email",
      address: "c@example.org",
    });
    await api(server, alice, "POST", `${V3}/rooms/${r}/upgrade`, { new_version: "11" });
    const validator = new EventValidator();
    const events = (await api(server, alice, "GET", `${V3}/rooms/${r}/messages?dir=f&limit=200`)).body[
      "chunk"
    ] as Obj[];
    expect(events.length).toBeGreaterThan(15);
    const types = new Set<string>();
    const problems: string[] = [];
    for (const ev of events) {
      const type = String(ev["type"]);
      if (!validator.has(type)) continue;
      // A redacted event keeps only the keys the algorithm allows, so its content no longer fits the type's schema.
      if ((ev["unsigned"] as Obj | undefined)?.["redacted_because"] !== undefined) continue;
      types.add(type);
      for (const p of validator.validate(ev)) problems.push(`${type}: ${p}`);
    }
    expect(problems).toEqual([]);
    for (const t of [
      "m.room.create",
      "m.room.member",
      "m.room.power_levels",
      "m.room.join_rules",
      "m.room.message",
      "m.room.redaction",
      "m.room.tombstone",
    ]) {
      expect(types).toContain(t);
    }
  });
});
