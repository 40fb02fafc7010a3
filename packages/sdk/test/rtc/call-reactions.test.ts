/**
 * Raised hands and reactions in a call: the wire forms against Element
 * Call's (exact types and keys), the validation of incoming events, and the
 * hand and reaction tracking with fake time.
 */
import { describe, expect, it } from "vitest";
import type { ClientEventWithoutRoomId } from "../../src/api/types/events";
import { ObservableValue } from "../../src/util/observable";
import type { CallMembership } from "../../src/rtc/membership/types";
import {
  CALL_REACTIONS,
  CallReactions,
  CallReactionsError,
  firstGrapheme,
  memberKey,
  NOT_IN_CALL,
  parseHand,
  parseReaction,
  RAISED_HAND_KEY,
  raisedHandContent,
  reactionContent,
  REACTION_SHOW_MS,
} from "../../src/rtc/reactions";
import type { CallReactionsIo } from "../../src/rtc/reactions";
import { CALL_REACTION_EVENT } from "../../src/rtc/constants";
import { FakeScheduler, flush } from "../support/fake-scheduler";

const ROOM_CALL = { application: "m.call", id: "", scope: "m.room" } as const;

function membership(sender: string, deviceId: string, eventId: string): CallMembership {
  return {
    form: "state",
    eventId,
    sender,
    deviceId,
    createdTs: 0,
    expiresAt: Number.MAX_SAFE_INTEGER,
    session: ROOM_CALL,
    callIntent: undefined,
    focusActive: undefined,
    fociPreferred: [],
    memberId: `${sender}:${deviceId}`,
  };
}

let counter = 0;
function event(
  type: string,
  sender: string,
  content: unknown,
  extra: Partial<ClientEventWithoutRoomId> = {},
): ClientEventWithoutRoomId {
  counter++;
  return {
    type,
    sender,
    event_id: `$ev${counter}`,
    origin_server_ts: 1000 + counter,
    content: content as ClientEventWithoutRoomId["content"],
    ...extra,
  };
}

const hand = (sender: string, membershipEventId: string, key = RAISED_HAND_KEY): ClientEventWithoutRoomId =>
  event("m.reaction", sender, {
    "m.relates_to": { rel_type: "m.annotation", event_id: membershipEventId, key },
  });

const reaction = (
  sender: string,
  membershipEventId: string,
  emoji: unknown,
  name: unknown = "thumbsup",
): ClientEventWithoutRoomId =>
  event(CALL_REACTION_EVENT, sender, {
    "m.relates_to": { rel_type: "m.reference", event_id: membershipEventId },
    emoji,
    name,
  });

interface Setup {
  tracker: CallReactions;
  scheduler: FakeScheduler;
  members: ObservableValue<readonly CallMembership[]>;
  sent: Array<{ type: string; content: Record<string, unknown> }>;
  redacted: string[];
}

function setup(
  list: readonly CallMembership[],
  annotations: Record<string, readonly ClientEventWithoutRoomId[] | undefined> = {},
): Setup {
  const scheduler = new FakeScheduler();
  const members = new ObservableValue<readonly CallMembership[]>(list);
  const sent: Setup["sent"] = [];
  const redacted: string[] = [];
  const io: CallReactionsIo = {
    send: (type, content) => {
      sent.push({ type, content });
      return Promise.resolve(`$sent${sent.length}`);
    },
    redact: (id) => {
      redacted.push(id);
      return Promise.resolve();
    },
    annotations: (id) => Promise.resolve(annotations[id] ?? []),
  };
  const tracker = new CallReactions({
    io,
    scheduler,
    userId: "@me:hs",
    deviceId: "ME",
    memberships: members,
  });
  return { tracker, scheduler, members, sent, redacted };
}

const ME = membership("@me:hs", "ME", "$memMe");
const ALICE = membership("@alice:hs", "A1", "$memAlice");
const BOB = membership("@bob:hs", "B1", "$memBob");

describe("wire forms (Element Call's)", () => {
  it("raises a hand as an m.reaction annotation on the membership event with the key U+1F590 U+FE0F", () => {
    expect(RAISED_HAND_KEY).toBe("🖐️");
    expect([...RAISED_HAND_KEY].map((c) => c.codePointAt(0))).toEqual([0x1f590, 0xfe0f]);
    expect(raisedHandContent("$mem")).toStrictEqual({
      "m.relates_to": { rel_type: "m.annotation", event_id: "$mem", key: "🖐️" },
    });
  });

  it("reacts with io.element.call.reaction: an m.reference to the membership event, emoji and name", () => {
    expect(CALL_REACTION_EVENT).toBe("io.element.call.reaction");
    expect(reactionContent("$mem", { emoji: "👍", name: "thumbsup" })).toStrictEqual({
      "m.relates_to": { rel_type: "m.reference", event_id: "$mem" },
      emoji: "👍",
      name: "thumbsup",
    });
  });

  it("offers Element Call's reaction names, its quick row first", () => {
    expect(CALL_REACTIONS.slice(0, 5).map((r) => r.name)).toEqual([
      "thumbsup",
      "party",
      "clapping",
      "dog",
      "cat",
    ]);
    expect(CALL_REACTIONS.map((r) => r.name)).toContain("drum");
    expect(REACTION_SHOW_MS).toBe(3000);
  });
});

describe("parsing untrusted events", () => {
  it("reads a hand with or without the variation selector, nothing else", () => {
    expect(parseHand(hand("@a:hs", "$m"))?.membershipEventId).toBe("$m");
    expect(parseHand(hand("@a:hs", "$m", "🖐"))).not.toBeNull();
    expect(parseHand(hand("@a:hs", "$m", "👍"))).toBeNull();
    expect(
      parseHand(
        event("m.reaction", "@a:hs", {
          "m.relates_to": { rel_type: "m.reference", event_id: "$m", key: "🖐️" },
        }),
      ),
    ).toBeNull();
    expect(parseHand(event("m.reaction", "@a:hs", { "m.relates_to": "nope" }))).toBeNull();
    expect(parseHand(event("m.reaction", "@a:hs", null))).toBeNull();
  });

  it("takes one grapheme of the emoji and refuses blank, missing or oversized fields", () => {
    expect(parseReaction(reaction("@a:hs", "$m", "👍👍"))?.emoji).toBe("👍");
    expect(parseReaction(reaction("@a:hs", "$m", "😵‍💫 and more"))?.emoji).toBe("😵‍💫");
    expect(parseReaction(reaction("@a:hs", "$m", "   "))).toBeNull();
    expect(parseReaction(reaction("@a:hs", "$m", 42))).toBeNull();
    expect(parseReaction(reaction("@a:hs", "$m", "👍", { x: 1 }))).toBeNull();
    expect(parseReaction(reaction("@a:hs", "$m", "👍", "n".repeat(65)))).toBeNull();
    expect(parseReaction(reaction("@a:hs", "$m", "x".repeat(100_000)))?.emoji).toBe("x");
    expect(firstGrapheme("")).toBeNull();
    const annotation = event(CALL_REACTION_EVENT, "@a:hs", {
      "m.relates_to": { rel_type: "m.annotation", event_id: "$m" },
      emoji: "👍",
      name: "thumbsup",
    });
    expect(parseReaction(annotation)).toBeNull();
  });

  it("treats __proto__ as data, never as the object's prototype", () => {
    const content = JSON.parse(
      '{"__proto__": {"emoji": "👍", "m.relates_to": {"rel_type": "m.reference", "event_id": "$m"}}}',
    ) as unknown;
    expect(parseReaction(event(CALL_REACTION_EVENT, "@a:hs", content))).toBeNull();
    expect(parseReaction(reaction("@a:hs", "$m", "👍", "__proto__"))?.name).toBe("__proto__");
  });
});

describe("CallReactions", () => {
  it("counts a member's hand on their own membership event, in the order raised; a redaction lowers it", async () => {
    const { tracker } = setup([ME, ALICE, BOB]);
    await tracker.start();
    const bobHand = hand("@bob:hs", "$memBob");
    tracker.receive(bobHand);
    tracker.receive(hand("@alice:hs", "$memAlice"));
    const hands = [...tracker.raisedHands.getSnapshot().values()].sort((a, b) => a.raisedAt - b.raisedAt);
    expect(hands.map((h) => h.userId)).toEqual(["@bob:hs", "@alice:hs"]);
    expect(tracker.raisedHands.getSnapshot().get(memberKey("@bob:hs", "B1"))?.reactionEventId).toBe(
      bobHand.event_id,
    );
    tracker.receive(event("m.room.redaction", "@bob:hs", {}, { redacts: bobHand.event_id }));
    expect([...tracker.raisedHands.getSnapshot().values()].map((h) => h.userId)).toEqual(["@alice:hs"]);
    // Room version 11: redacts inside the content.
    const aliceHand = tracker.raisedHands.getSnapshot().get(memberKey("@alice:hs", "A1"));
    tracker.receive(event("m.room.redaction", "@alice:hs", { redacts: aliceHand?.reactionEventId }));
    expect(tracker.raisedHands.getSnapshot().size).toBe(0);
  });

  it("ignores hands of non-members and hands on someone else's membership", async () => {
    const { tracker } = setup([ME, ALICE]);
    await tracker.start();
    tracker.receive(hand("@mallory:hs", "$memAlice"));
    tracker.receive(hand("@mallory:hs", "$memMallory"));
    tracker.receive(hand("@alice:hs", "$memMe"));
    expect(tracker.raisedHands.getSnapshot().size).toBe(0);
  });

  it("clears a hand when the member leaves or re-joins with a new membership event", async () => {
    const { tracker, members } = setup([ME, ALICE, BOB]);
    await tracker.start();
    tracker.receive(hand("@alice:hs", "$memAlice"));
    tracker.receive(hand("@bob:hs", "$memBob"));
    members.set([ME, BOB]);
    expect([...tracker.raisedHands.getSnapshot().values()].map((h) => h.userId)).toEqual(["@bob:hs"]);
    members.set([ME, membership("@bob:hs", "B1", "$memBob2")]);
    expect(tracker.raisedHands.getSnapshot().size).toBe(0);
  });

  it("keeps a hand that came before its membership, and applies it once the membership shows", async () => {
    const { tracker, members } = setup([ME]);
    await tracker.start();
    tracker.receive(hand("@alice:hs", "$memAlice"));
    expect(tracker.raisedHands.getSnapshot().size).toBe(0);
    members.set([ME, ALICE]);
    expect(tracker.raisedHands.getSnapshot().has(memberKey("@alice:hs", "A1"))).toBe(true);
  });

  it("restores the hands raised before we joined from each membership's annotations, other keys and senders ignored", async () => {
    const { tracker } = setup([ME, ALICE, BOB], {
      $memAlice: [hand("@alice:hs", "$memAlice"), hand("@bob:hs", "$memAlice")],
      $memBob: [hand("@bob:hs", "$memBob", "👍")],
    });
    await tracker.start();
    expect([...tracker.raisedHands.getSnapshot().keys()]).toEqual([memberKey("@alice:hs", "A1")]);
  });

  it("after a gap, reads the hands again: one the server no longer lists is lowered, a new one counts", async () => {
    const annotations: Record<string, ClientEventWithoutRoomId[]> = {};
    const { tracker } = setup([ME, ALICE, BOB], annotations);
    await tracker.start();
    tracker.receive(hand("@alice:hs", "$memAlice"));
    // In the gap alice lowered her hand (the redaction was missed) and bob raised his.
    const bobHand = hand("@bob:hs", "$memBob");
    annotations["$memBob"] = [bobHand];
    await tracker.restore();
    expect([...tracker.raisedHands.getSnapshot().keys()]).toEqual([memberKey("@bob:hs", "B1")]);
    // Lowered and raised again in a gap: the newest reaction is the one a lower would redact.
    const again = hand("@bob:hs", "$memBob");
    annotations["$memBob"] = [again];
    await tracker.restore();
    expect(tracker.raisedHands.getSnapshot().get(memberKey("@bob:hs", "B1"))?.reactionEventId).toBe(
      again.event_id,
    );
    tracker.receive(event("m.room.redaction", "@bob:hs", {}, { redacts: again.event_id }));
    expect(tracker.raisedHands.getSnapshot().size).toBe(0);
  });

  it("takes user ids like __proto__ as data", async () => {
    const proto = membership("__proto__", "constructor", "$memProto");
    const { tracker } = setup([ME, proto]);
    await tracker.start();
    tracker.receive(hand("__proto__", "$memProto"));
    tracker.receive(reaction("__proto__", "$memProto", "🎉", "party"));
    expect(tracker.raisedHands.getSnapshot().get(memberKey("__proto__", "constructor"))?.userId).toBe(
      "__proto__",
    );
    expect(tracker.reactions.getSnapshot().get(memberKey("__proto__", "constructor"))?.emoji).toBe("🎉");
  });

  it("shows a member's reaction for 3000 ms and ignores their next one meanwhile", async () => {
    const { tracker, scheduler } = setup([ME, ALICE]);
    await tracker.start();
    const key = memberKey("@alice:hs", "A1");
    tracker.receive(reaction("@alice:hs", "$memAlice", "👍", "thumbsup"));
    tracker.receive(reaction("@alice:hs", "$memAlice", "🎉", "party"));
    expect(tracker.reactions.getSnapshot().get(key)).toMatchObject({
      emoji: "👍",
      name: "thumbsup",
      known: true,
    });
    await scheduler.advance(REACTION_SHOW_MS - 1);
    expect(tracker.reactions.getSnapshot().has(key)).toBe(true);
    await scheduler.advance(1);
    expect(tracker.reactions.getSnapshot().has(key)).toBe(false);
    tracker.receive(reaction("@alice:hs", "$memAlice", "🦄", "unicorn"));
    expect(tracker.reactions.getSnapshot().get(key)).toMatchObject({ emoji: "🦄", known: false });
  });

  it("ignores reactions of non-members and to another member's membership", async () => {
    const { tracker } = setup([ME, ALICE]);
    await tracker.start();
    tracker.receive(reaction("@mallory:hs", "$memAlice", "👍"));
    tracker.receive(reaction("@alice:hs", "$memMe", "👍"));
    expect(tracker.reactions.getSnapshot().size).toBe(0);
  });

  it("never throws on hostile events", async () => {
    const { tracker } = setup([ME, ALICE]);
    await tracker.start();
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error("boom");
        },
      },
    ) as ClientEventWithoutRoomId;
    expect(() => tracker.receive(hostile)).not.toThrow();
    expect(() => tracker.receive(event("m.reaction", "@alice:hs", [1, 2]))).not.toThrow();
    expect(() => tracker.receive(event("m.room.redaction", "@alice:hs", "x"))).not.toThrow();
  });

  it("raises our hand on our membership event, lowers it by redacting that reaction", async () => {
    const { tracker, sent, redacted } = setup([ME, ALICE]);
    await tracker.start();
    await tracker.raiseHand();
    await tracker.raiseHand(); // already up: nothing more is sent
    expect(sent).toStrictEqual([
      {
        type: "m.reaction",
        content: { "m.relates_to": { rel_type: "m.annotation", event_id: "$memMe", key: "🖐️" } },
      },
    ]);
    expect(tracker.ownHand()?.reactionEventId).toBe("$sent1");
    await tracker.lowerHand();
    expect(redacted).toEqual(["$sent1"]);
    expect(tracker.ownHand()).toBeUndefined();
  });

  it("sends a reaction, shows it on our tile at once, and refuses another while it shows", async () => {
    const { tracker, sent, scheduler } = setup([ME]);
    await tracker.start();
    expect(await tracker.react({ emoji: "👏", name: "clapping" })).toBe(true);
    expect(await tracker.react({ emoji: "🎉", name: "party" })).toBe(false);
    expect(sent).toStrictEqual([
      {
        type: "io.element.call.reaction",
        content: {
          "m.relates_to": { rel_type: "m.reference", event_id: "$memMe" },
          emoji: "👏",
          name: "clapping",
        },
      },
    ]);
    expect(tracker.reactions.getSnapshot().get(memberKey("@me:hs", "ME"))?.emoji).toBe("👏");
    // Our echo does not show it a second time after it ended.
    await scheduler.advance(REACTION_SHOW_MS);
    tracker.receive({ ...reaction("@me:hs", "$memMe", "👏", "clapping"), event_id: "$sent1" });
    expect(tracker.reactions.getSnapshot().size).toBe(0);
  });

  it("keeps our hand up across a new membership event of ours: raised again on it", async () => {
    const { tracker, sent, members } = setup([ME, ALICE]);
    await tracker.start();
    await tracker.raiseHand();
    // Our delayed leave fired and the call joined again: first no membership of ours, then a new one.
    members.set([ALICE]);
    await flush();
    expect(tracker.ownHand()).toBeUndefined();
    expect(sent).toHaveLength(1);
    members.set([membership("@me:hs", "ME", "$memMe2"), ALICE]);
    await flush();
    expect(sent.map((s) => s.content)).toStrictEqual([
      { "m.relates_to": { rel_type: "m.annotation", event_id: "$memMe", key: "🖐️" } },
      { "m.relates_to": { rel_type: "m.annotation", event_id: "$memMe2", key: "🖐️" } },
    ]);
    expect(tracker.ownHand()).toMatchObject({ membershipEventId: "$memMe2", reactionEventId: "$sent2" });
  });

  it("raises it again when our membership changed while the hand was being sent", async () => {
    const members = new ObservableValue<readonly CallMembership[]>([ME]);
    const sent: string[] = [];
    let answer = (): void => undefined;
    const tracker = new CallReactions({
      io: {
        send: (_type, content) => {
          sent.push((content["m.relates_to"] as { event_id: string }).event_id);
          const id = `$sent${sent.length}`;
          // The first send is answered when the test says so.
          return sent.length === 1
            ? new Promise((resolve) => (answer = () => resolve(id)))
            : Promise.resolve(id);
        },
        redact: () => Promise.resolve(),
        annotations: () => Promise.resolve([]),
      },
      scheduler: new FakeScheduler(),
      userId: "@me:hs",
      deviceId: "ME",
      memberships: members,
    });
    await tracker.start();
    const raising = tracker.raiseHand();
    await flush();
    expect(sent).toEqual(["$memMe"]);
    members.set([membership("@me:hs", "ME", "$memMe2")]);
    answer();
    await raising;
    await flush();
    expect(sent).toEqual(["$memMe", "$memMe2"]);
    expect(tracker.ownHand()?.membershipEventId).toBe("$memMe2");
  });

  it("leaves down a hand we lowered, one lowered elsewhere, or one refused before we joined", async () => {
    const lowered = setup([ME]);
    await lowered.tracker.start();
    await lowered.tracker.raiseHand();
    const lowering = lowered.tracker.lowerHand();
    lowered.members.set([membership("@me:hs", "ME", "$memMe2")]);
    await lowering;
    await flush();
    expect(lowered.sent).toHaveLength(1);
    expect(lowered.tracker.ownHand()).toBeUndefined();

    // Another device of ours redacted it: a new membership of ours does not bring it back.
    const elsewhere = setup([ME]);
    await elsewhere.tracker.start();
    await elsewhere.tracker.raiseHand();
    elsewhere.tracker.receive(event("m.room.redaction", "@me:hs", {}, { redacts: "$sent1" }));
    elsewhere.members.set([membership("@me:hs", "ME", "$memMe2")]);
    await flush();
    expect(elsewhere.sent).toHaveLength(1);
    expect(elsewhere.tracker.ownHand()).toBeUndefined();

    const early = setup([ALICE]);
    await early.tracker.start();
    await expect(early.tracker.raiseHand()).rejects.toThrow(NOT_IN_CALL);
    early.members.set([ME, ALICE]);
    await flush();
    expect(early.sent).toEqual([]);
  });

  it("refuses to raise or react before our membership has an event id", async () => {
    const { tracker } = setup([ALICE]);
    await tracker.start();
    await expect(tracker.raiseHand()).rejects.toBeInstanceOf(CallReactionsError);
    await expect(tracker.react({ emoji: "👍", name: "thumbsup" })).rejects.toThrow(NOT_IN_CALL);
  });

  it("stops its timers and membership watch on end", async () => {
    const { tracker, scheduler, members } = setup([ME, ALICE]);
    await tracker.start();
    tracker.receive(reaction("@alice:hs", "$memAlice", "👍"));
    tracker.receive(hand("@alice:hs", "$memAlice"));
    tracker.end();
    await flush();
    expect(scheduler.pending()).toEqual([]);
    members.set([ME]);
    expect(tracker.raisedHands.getSnapshot().size).toBe(1);
  });
});
