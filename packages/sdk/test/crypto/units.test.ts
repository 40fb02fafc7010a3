/**
 * Unit tests of the crypto layer's pure parts: room facts and key
 * recipients, the waiting-event table, the outgoing request processor over
 * a fake engine (mapping, answers, no two runs at once), failure
 * classification, the lock, and the no-crypto guards with SPEC §8 text.
 */
import { describe, expect, it } from "vitest";
import type { ClientEventWithoutRoomId } from "../../src/api/types/events";
import { classifyFailure, waitsForKey } from "../../src/crypto/decrypt";
import {
  assertRoomEncryptionSupported,
  assertToDeviceEncryptionSupported,
  CryptoError,
} from "../../src/crypto/errors";
import { batchNeedsCrypto } from "../../src/crypto/LazyCrypto";
import type { Engine } from "../../src/crypto/load";
import { KeyedLock } from "../../src/crypto/lock";
import { OutgoingRequests } from "../../src/crypto/OutgoingRequests";
import { PendingDecryptions } from "../../src/crypto/PendingDecryptions";
import { parseEncryptionContent, RoomCryptoState } from "../../src/crypto/RoomCryptoState";
import type { RequestOptions } from "../../src/http/types";
import { emptyParsedSync } from "../../src/sync/validate/types";
import type { ParsedSync } from "../../src/sync/validate/types";

let n = 0;
function state(type: string, stateKey: string, content: Record<string, unknown>): ClientEventWithoutRoomId {
  return { event_id: `$e${++n}`, type, state_key: stateKey, sender: "@a:x", origin_server_ts: n, content };
}

function batch(roomId: string, events: ClientEventWithoutRoomId[]): ParsedSync {
  const b = emptyParsedSync(`s${++n}`);
  b.rooms.join.set(roomId, {
    state: [],
    timeline: { events, limited: false },
    ephemeral: [],
    accountData: [],
  });
  return b;
}

const megolm = { algorithm: "m.megolm.v1.aes-sha2" };

describe("RoomCryptoState", () => {
  it("picks joined members, and invited ones unless history visibility is joined", () => {
    const rooms = new RoomCryptoState();
    const changes = rooms.ingest(
      batch("!r:x", [
        state("m.room.member", "@a:x", { membership: "join" }),
        state("m.room.member", "@b:x", { membership: "invite" }),
        state("m.room.member", "@c:x", { membership: "leave" }),
        state("m.room.member", "__proto__", { membership: "join" }),
        state("m.room.encryption", "", megolm),
      ]),
    );
    expect(changes.newlyEncrypted).toEqual(["!r:x"]);
    expect([...changes.memberChanges].sort()).toEqual(["@a:x", "@b:x", "__proto__"]);
    expect(rooms.recipients("!r:x").sort()).toEqual(["@a:x", "@b:x", "__proto__"]);
    expect(rooms.historyVisibility("!r:x")).toBe("shared");
    rooms.ingest(batch("!r:x", [state("m.room.history_visibility", "", { history_visibility: "joined" })]));
    expect(rooms.recipients("!r:x").sort()).toEqual(["@a:x", "__proto__"]);
    expect(rooms.usersToTrack().sort()).toEqual(["@a:x", "@b:x", "__proto__"]);
  });

  it("never switches encryption off and ignores malformed settings", () => {
    const rooms = new RoomCryptoState();
    rooms.ingest(
      batch("__proto__", [state("m.room.encryption", "", { ...megolm, rotation_period_msgs: 3 })]),
    );
    expect(rooms.isEncrypted("__proto__")).toBe(true);
    rooms.ingest(batch("__proto__", [state("m.room.encryption", "", {})]));
    rooms.ingest(batch("__proto__", [state("m.room.encryption", "x", { algorithm: "other" })]));
    expect(rooms.encryption("__proto__")).toEqual({
      algorithm: "m.megolm.v1.aes-sha2",
      rotationPeriodMsgs: 3,
    });
    expect(rooms.isEncrypted("!other:x")).toBe(false);
    expect(rooms.hasEncryptedRooms()).toBe(true);
  });

  it("validates m.room.encryption content", () => {
    expect(parseEncryptionContent(null)).toBeUndefined();
    expect(parseEncryptionContent([])).toBeUndefined();
    expect(parseEncryptionContent({ algorithm: 5 })).toBeUndefined();
    expect(parseEncryptionContent({ ...megolm, rotation_period_ms: -1, rotation_period_msgs: "7" })).toEqual(
      megolm,
    );
    expect(
      parseEncryptionContent({ ...megolm, rotation_period_ms: 6e5, rotation_period_msgs: 10.7 }),
    ).toEqual({
      ...megolm,
      rotationPeriodMs: 6e5,
      rotationPeriodMsgs: 10,
    });
  });

  it("counts invite state, so an invite to an encrypted room needs crypto", () => {
    const rooms = new RoomCryptoState();
    const b = emptyParsedSync("s");
    b.rooms.invite.set("!i:x", {
      inviteState: [{ type: "m.room.encryption", state_key: "", sender: "@a:x", content: megolm }],
    });
    expect(batchNeedsCrypto(emptyParsedSync("t"), rooms)).toBe(false);
    rooms.ingest(b);
    expect(batchNeedsCrypto(emptyParsedSync("t"), rooms)).toBe(true);
    const withToDevice = emptyParsedSync("u");
    withToDevice.toDevice.push({ type: "m.room.encrypted", sender: "@a:x", content: {} });
    expect(batchNeedsCrypto(withToDevice, new RoomCryptoState())).toBe(true);
  });
});

describe("PendingDecryptions", () => {
  it("keeps events by room and session, bounded, oldest dropped first", () => {
    const pending = new PendingDecryptions(3);
    const ev = (id: string) => ({ ...state("m.room.encrypted", "", {}), event_id: id });
    pending.add("!r", "s1", ev("$1"));
    pending.add("!r", "s1", ev("$2"));
    pending.add("!r", "s2", ev("$3"));
    pending.add("!r", "s1", ev("$1")); // again: no growth
    expect(pending.size).toBe(3);
    pending.add("!q", "s1", ev("$4"));
    expect(pending.size).toBe(3);
    expect(pending.take("!r", "s1").map((p) => p.event.event_id)).toEqual(["$2"]);
    pending.remove("!r", "s2", "$3");
    expect(pending.take("!r", "s2")).toEqual([]);
    expect(pending.take("!q", "s1").map((p) => p.roomId)).toEqual(["!q"]);
    expect(pending.size).toBe(0);
    for (let i = 0; i < 20; i += 1) pending.add("!r", `s${i}`, ev(`$x${i}`));
    expect(pending.size).toBe(3);
  });
});

class FakeDecryptionError {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly maybe_withheld?: string,
  ) {}
}
const fakeEngine = {
  MegolmDecryptionError: FakeDecryptionError,
  DecryptionErrorCode: {
    MissingRoomKey: 0,
    UnknownMessageIndex: 1,
    MismatchedIdentityKeys: 2,
    UnableToDecrypt: 6,
  },
} as unknown as Pick<Engine, "MegolmDecryptionError" | "DecryptionErrorCode">;

describe("classifyFailure", () => {
  const event = (ts: number, membership?: string): ClientEventWithoutRoomId => ({
    ...state("m.room.encrypted", "", {}),
    origin_server_ts: ts,
    ...(membership ? { unsigned: { membership } } : {}),
  });

  it("tells expected failures from real ones", () => {
    const missing = new FakeDecryptionError(0, "missing");
    expect(classifyFailure(fakeEngine, missing, event(500), 1000)).toEqual({
      code: "historical_message",
      reason: "This message was sent before this device signed in.",
      expected: true,
    });
    expect(classifyFailure(fakeEngine, missing, event(2000), 1000)).toEqual({
      code: "missing_room_key",
      reason: "The sender's device has not sent us the keys for this message.",
      expected: false,
    });
    expect(classifyFailure(fakeEngine, missing, event(2000, "leave"), 1000)).toMatchObject({
      code: "not_joined",
      expected: true,
    });
    const withheld = new FakeDecryptionError(1, "ratcheted", "The sender has blocked you.");
    expect(classifyFailure(fakeEngine, withheld, event(2000), 1000)).toEqual({
      code: "withheld",
      reason: "The sender has blocked you.",
      expected: true,
      withheld: "The sender has blocked you.",
    });
    const mismatch = new FakeDecryptionError(2, "keys mismatch");
    const real = classifyFailure(fakeEngine, mismatch, event(2000), 1000);
    expect(real).toEqual({ code: "mismatched_identity_keys", reason: "keys mismatch", expected: false });
    expect(waitsForKey(real)).toBe(false);
    expect(classifyFailure(fakeEngine, new Error("boom"), event(1), 1000)).toEqual({
      code: "unable_to_decrypt",
      reason: "boom",
      expected: false,
    });
  });

  it("reads the membership from the room's history when the server sends no unsigned.membership", () => {
    const missing = new FakeDecryptionError(0, "missing");
    expect(classifyFailure(fakeEngine, missing, event(2000), 1000, "leave")).toEqual({
      code: "not_joined",
      reason: "You were not a member of the room when this message was sent.",
      expected: true,
    });
    expect(classifyFailure(fakeEngine, missing, event(2000), 1000, "join")).toMatchObject({
      code: "missing_room_key",
    });
    // What the server says wins over the local history.
    expect(classifyFailure(fakeEngine, missing, event(2000, "join"), 1000, "leave")).toMatchObject({
      code: "missing_room_key",
    });
  });
});

describe("RoomCryptoState.membershipAt", () => {
  const member = (id: string, ts: number, membership: string, prev?: string): ClientEventWithoutRoomId => ({
    event_id: id,
    type: "m.room.member",
    state_key: "@me:x",
    sender: "@me:x",
    origin_server_ts: ts,
    content: { membership },
    ...(prev ? { unsigned: { prev_content: { membership: prev } } } : {}),
  });

  it("answers from the own user's membership events: before the join, between leave and rejoin", () => {
    const rooms = new RoomCryptoState({ ownUserId: "@me:x" });
    expect(rooms.membershipAt("!r:x", 5)).toBeUndefined();
    rooms.ingest(batch("!r:x", [member("$j", 100, "join")]));
    expect(rooms.membershipAt("!r:x", 50)).toBe("leave");
    expect(rooms.membershipAt("!r:x", 100)).toBe("join");
    expect(rooms.membershipAt("!r:x", 150)).toBe("join");
    rooms.ingest(batch("!r:x", [member("$l", 200, "leave", "join"), member("$j2", 300, "join", "leave")]));
    expect(rooms.membershipAt("!r:x", 250)).toBe("leave");
    expect(rooms.membershipAt("!r:x", 350)).toBe("join");
    // An older page adds its own events; an invite before the first join is not membership.
    rooms.recordHistory("!r:x", [member("$i", 80, "invite", "leave")]);
    expect(rooms.membershipAt("!r:x", 90)).toBe("invite");
    expect(rooms.membershipAt("!r:x", 10)).toBe("leave");
    // Other users' events are not the viewer's history.
    const other = new RoomCryptoState({ ownUserId: "@other:x" });
    other.ingest(batch("!r:x", [member("$j", 100, "join")]));
    expect(other.membershipAt("!r:x", 50)).toBeUndefined();
  });
});

describe("OutgoingRequests", () => {
  const T = {
    KeysUpload: 0,
    KeysQuery: 1,
    KeysClaim: 2,
    ToDevice: 3,
    SignatureUpload: 4,
    RoomMessage: 5,
    KeysBackup: 6,
  };
  const engine = { RequestType: T } as unknown as Pick<Engine, "RequestType">;

  function fakeMachine(batches: unknown[][]) {
    const marked: Array<[string, number, unknown]> = [];
    return {
      marked,
      outgoingRequests: () => Promise.resolve(batches.shift() ?? []),
      markRequestAsSent: (id: string, type: number, response: string) => {
        marked.push([id, type, JSON.parse(response)]);
        return Promise.resolve(true);
      },
    };
  }

  it("maps each request type to its endpoint and reports the answer", async () => {
    const machine = fakeMachine([
      [
        { id: "1", type: T.KeysUpload, body: '{"device_keys":{}}' },
        { id: "2", type: T.KeysQuery, body: '{"device_keys":{"@b:x":[]}}' },
        { id: "3", type: T.KeysClaim, body: '{"one_time_keys":{}}' },
        {
          id: "4",
          type: T.ToDevice,
          event_type: "m.room.encrypted",
          txn_id: "t/1",
          body: '{"messages":{"@b:x":{}}}',
        },
        { id: "5", type: T.SignatureUpload, body: "{}" },
        {
          id: "6",
          type: T.RoomMessage,
          room_id: "!r:x",
          event_type: "m.key.verification.ready",
          txn_id: "t2",
          body: "{}",
        },
        { id: "7", type: T.KeysBackup, version: "3", body: '{"rooms":{}}' },
      ],
    ]);
    const seen: RequestOptions[] = [];
    const http = {
      request<R>(o: RequestOptions): Promise<R> {
        seen.push(o);
        return Promise.resolve({ answered: o.path } as R);
      },
    };
    const proc = new OutgoingRequests(engine, machine as never, http);
    await proc.run();
    expect(seen.map((o) => `${o.method} ${o.path}`)).toEqual([
      "POST /keys/upload",
      "POST /keys/query",
      "POST /keys/claim",
      "PUT /sendToDevice/m.room.encrypted/t%2F1",
      "POST /keys/signatures/upload",
      "PUT /rooms/!r%3Ax/send/m.key.verification.ready/t2",
      "PUT /room_keys/keys",
    ]);
    expect(seen[3]?.body).toEqual({ messages: { "@b:x": {} } });
    expect(seen[6]?.query).toEqual({ version: "3" });
    expect(machine.marked.map(([id, type]) => [id, type])).toEqual([
      ["1", 0],
      ["2", 1],
      ["3", 2],
      ["4", 3],
      ["5", 4],
      ["6", 5],
      ["7", 6],
    ]);
    expect(machine.marked[0]?.[2]).toEqual({ answered: "/keys/upload" });
  });

  it("never runs twice at once; a run asked for meanwhile fetches the queue again", async () => {
    const machine = fakeMachine([
      [{ id: "a", type: T.KeysQuery, body: "{}" }],
      [{ id: "b", type: T.KeysQuery, body: "{}" }],
    ]);
    let inFlight = 0;
    let maxInFlight = 0;
    const releases: Array<() => void> = [];
    const http = {
      async request<R>(): Promise<R> {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise<void>((r) => releases.push(r));
        inFlight -= 1;
        return {} as R;
      },
    };
    const proc = new OutgoingRequests(engine, machine as never, http);
    const first = proc.run();
    const second = proc.run();
    const third = proc.run();
    await expect.poll(() => releases.length).toBe(1);
    releases.shift()?.();
    await first;
    expect(machine.marked.map(([id]) => id)).toEqual(["a"]);
    await expect.poll(() => releases.length).toBe(1);
    releases.shift()?.();
    await Promise.all([second, third]);
    await proc.idle();
    expect(maxInFlight).toBe(1);
    expect(machine.marked.map(([id]) => id)).toEqual(["a", "b"]);
  });

  it("a caller waits for the pass after its call, not for the passes others keep asking for", async () => {
    // Every pass finds one new request, and a run is asked for during each pass: the loop never ends by itself.
    let made = 0;
    const machine = {
      marked: [] as string[],
      outgoingRequests: () => Promise.resolve([{ id: `r${++made}`, type: T.KeysQuery, body: "{}" }]),
      markRequestAsSent(id: string) {
        this.marked.push(id);
        return Promise.resolve(true);
      },
    };
    let keepAsking = true;
    const released: Array<() => void> = [];
    const http = {
      async request<R>(): Promise<R> {
        await new Promise<void>((r) => released.push(r));
        if (keepAsking) void proc.run();
        return {} as R;
      },
    };
    const proc = new OutgoingRequests(engine, machine as never, http);
    void proc.run(); // pass 1 starts
    await expect.poll(() => released.length).toBe(1);
    const mine = proc.run(); // asked during pass 1: its pass is pass 2
    let settled = false;
    void mine.then(() => (settled = true));
    released.shift()?.(); // pass 1 ends, pass 2 starts
    await expect.poll(() => released.length).toBe(1);
    expect(settled).toBe(false);
    released.shift()?.(); // pass 2 ends (pass 3 was asked for meanwhile)
    await mine;
    expect(machine.marked).toEqual(["r1", "r2"]);
    keepAsking = false;
    await expect.poll(() => released.length).toBe(1);
    released.shift()?.();
    await proc.idle();
    expect(machine.marked).toEqual(["r1", "r2", "r3"]);
  });

  it("a run asked for just as the loop ends gets its own pass", async () => {
    const machine = fakeMachine([
      [{ id: "a", type: T.KeysQuery, body: "{}" }],
      [{ id: "b", type: T.KeysQuery, body: "{}" }],
    ]);
    const http = { request: <R>(): Promise<R> => Promise.resolve({} as R) };
    const proc = new OutgoingRequests(engine, machine as never, http);
    // The caller resumes after the loop's last check for more work, before the loop is marked done:
    // its second run lands on a loop that is ending (it used to be left without a pass).
    await proc.run();
    await proc.run();
    expect(machine.marked.map(([id]) => id)).toEqual(["a", "b"]);
  });

  it("logs a failed request and goes on with the rest", async () => {
    const machine = fakeMachine([
      [
        { id: "1", type: T.KeysUpload, body: "{}" },
        { id: "2", type: 99, body: "{}" },
        { id: "3", type: T.KeysQuery, body: "{}" },
      ],
    ]);
    const warnings: string[] = [];
    const http = {
      request<R>(o: RequestOptions): Promise<R> {
        return o.path === "/keys/upload" ? Promise.reject(new Error("503")) : Promise.resolve({} as R);
      },
    };
    await new OutgoingRequests(engine, machine as never, http, { warn: (m) => warnings.push(m) }).run();
    expect(machine.marked.map(([id]) => id)).toEqual(["3"]);
    expect(warnings).toHaveLength(2);
  });
});

describe("KeyedLock", () => {
  it("runs work for one key in order, even after a failure", async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const slow = lock.run("k", async () => {
      await new Promise((r) => setTimeout(r, 10));
      log.push("slow");
      throw new Error("x");
    });
    const fast = lock.run("k", () => {
      log.push("fast");
      return Promise.resolve(1);
    });
    const other = lock.run("o", () => {
      log.push("other");
      return Promise.resolve(2);
    });
    await expect(slow).rejects.toThrow("x");
    expect(await fast).toBe(1);
    expect(await other).toBe(2);
    expect(log).toEqual(["other", "slow", "fast"]);
  });
});

describe("guards without crypto", () => {
  it("throw the spec's messages", () => {
    expect(() => assertRoomEncryptionSupported(true, false)).toThrow(
      new CryptoError(
        "crypto_disabled",
        "This room is configured to use encryption, but your client does not support encryption.",
      ),
    );
    expect(() => assertRoomEncryptionSupported(true, false)).toThrow(
      "This room is configured to use encryption, but your client does not support encryption.",
    );
    expect(() => assertRoomEncryptionSupported(false, false)).not.toThrow();
    expect(() => assertRoomEncryptionSupported(true, true)).not.toThrow();
    expect(() => assertToDeviceEncryptionSupported(false)).toThrow(
      "Cannot encrypt to device event, your client does not support encryption.",
    );
    expect(() => assertToDeviceEncryptionSupported(true)).not.toThrow();
  });
});
