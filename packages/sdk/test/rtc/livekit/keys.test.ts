/**
 * The key feed from the encryption manager's observables to the frame
 * encryptor's key provider: our key under our SFU identity, each remote
 * key under both names a participant may have on the SFU, rotations as new
 * indexes (newest last), nothing given twice, "waiting for keys" until a
 * key arrives, and nothing after dispose.
 */
import { describe, expect, it } from "vitest";
import { ObservableValue } from "../../../src/util/observable";
import type { OwnKey, ParticipantKeys, RtcParticipant } from "../../../src/rtc/keys/EncryptionManager";
import { hashedIdentity } from "../../../src/rtc/keys/identity";
import { KeyFeed } from "../../../src/rtc/livekit/keys";

function participant(
  userId: string,
  deviceId: string,
  keys: ObservableValue<ParticipantKeys>,
): RtcParticipant {
  return {
    userId,
    deviceId,
    memberId: `${userId}:${deviceId}`,
    identity: `${userId}:${deviceId}`,
    membership: {} as RtcParticipant["membership"],
    keys,
  };
}

const bytes = (n: number): Uint8Array => new Uint8Array(16).fill(n);

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
}

describe("KeyFeed", () => {
  it("feeds our key and every rotation under our identity, remote keys under both names", async () => {
    const ownKey = new ObservableValue<OwnKey | undefined>({ index: 0, key: bytes(1) });
    const bobKeys = new ObservableValue<ParticipantKeys>({ latestIndex: undefined, keys: new Map() });
    const participants = new ObservableValue<readonly RtcParticipant[]>([
      participant("@bob:hs", "B", bobKeys),
    ]);
    const set: Array<[string, number, number]> = [];
    const feed = new KeyFeed(
      { ownKey, participants },
      { setKey: (id, index, key) => set.push([id, index, key[0] ?? -1]) },
    );
    await settle();
    const bobHashed = await hashedIdentity("@bob:hs", "B", "@bob:hs:B");
    expect(feed.keyState("@bob:hs:B")).toBe("waiting_for_keys");

    feed.setLocalIdentity("me");
    expect(set).toEqual([["me", 0, 1]]);

    bobKeys.set({
      latestIndex: 3,
      keys: new Map([
        [3, bytes(7)],
        [2, bytes(6)],
      ]),
    });
    // Older index first, the newest last, for both of Bob's names.
    expect(set.slice(1)).toEqual([
      ["@bob:hs:B", 2, 6],
      ["@bob:hs:B", 3, 7],
      [bobHashed, 2, 6],
      [bobHashed, 3, 7],
    ]);
    expect(feed.keyState("@bob:hs:B")).toBe("has_keys");
    expect(feed.keyState(bobHashed)).toBe("has_keys");

    // A rotation: only what is new is given.
    set.length = 0;
    ownKey.set({ index: 1, key: bytes(2) });
    bobKeys.set({
      latestIndex: 4,
      keys: new Map([
        [2, bytes(6)],
        [3, bytes(7)],
        [4, bytes(8)],
      ]),
    });
    expect(set).toEqual([
      ["me", 1, 2],
      ["@bob:hs:B", 4, 8],
      [bobHashed, 4, 8],
    ]);

    // Bob leaves: his identities wait for keys again (a rejoin gets new ones).
    participants.set([]);
    await settle();
    expect(feed.keyState("@bob:hs:B")).toBe("waiting_for_keys");

    feed.dispose();
    set.length = 0;
    ownKey.set({ index: 2, key: bytes(3) });
    expect(set).toEqual([]);
  });

  it("a key replaced at the same index is given again", async () => {
    const ownKey = new ObservableValue<OwnKey | undefined>(undefined);
    const keys = new ObservableValue<ParticipantKeys>({ latestIndex: 0, keys: new Map([[0, bytes(1)]]) });
    const participants = new ObservableValue<readonly RtcParticipant[]>([participant("@c:hs", "C", keys)]);
    const set: Array<[string, number, number]> = [];
    const feed = new KeyFeed(
      { ownKey, participants },
      { setKey: (id, index, key) => set.push([id, index, key[0] ?? -1]) },
    );
    await settle();
    set.length = 0;
    keys.set({ latestIndex: 0, keys: new Map([[0, bytes(9)]]) });
    expect(set.map(([, index, first]) => [index, first])).toEqual([
      [0, 9],
      [0, 9],
    ]);
    feed.dispose();
  });
});
