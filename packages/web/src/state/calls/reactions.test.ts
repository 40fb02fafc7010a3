/**
 * The call view's raise hand and reactions over the SDK's CallReactions
 * (fake sends, fake time): the hand order each tile shows, our own toggle,
 * a reaction on the tile for REACTION_SHOW_MS, and a failed send said as
 * the call's error.
 */
import { describe, expect, it } from "vitest";
import { ObservableValue } from "../observables";
import { CallReactions, REACTION_SHOW_MS } from "@lattice/sdk/rtc/reactions/index";
import type { CallMembership } from "@lattice/sdk/rtc/membership/types";
import { FakeScheduler } from "@lattice/sdk/test/support/fake-scheduler";
import { CallReactionsViewModel } from "./reactions";

function membership(sender: string, deviceId: string, eventId: string): CallMembership {
  return {
    form: "state",
    eventId,
    sender,
    deviceId,
    createdTs: 0,
    expiresAt: Number.MAX_SAFE_INTEGER,
    session: { application: "m.call", id: "", scope: "m.room" },
    callIntent: undefined,
    focusActive: undefined,
    fociPreferred: [],
    memberId: `${sender}:${deviceId}`,
  };
}

function setup(failSends = false): {
  vm: CallReactionsViewModel;
  tracker: CallReactions;
  scheduler: FakeScheduler;
  errors: string[];
} {
  const scheduler = new FakeScheduler();
  const members = new ObservableValue<readonly CallMembership[]>([
    membership("@me:hs", "ME", "$me"),
    membership("@a:hs", "A", "$a"),
  ]);
  let n = 0;
  const tracker = new CallReactions({
    scheduler,
    userId: "@me:hs",
    deviceId: "ME",
    memberships: members,
    io: {
      send: () =>
        failSends ? Promise.reject(new Error("m.reaction was not sent")) : Promise.resolve(`$s${++n}`),
      redact: () => Promise.resolve(),
      annotations: () => Promise.resolve([]),
    },
  });
  const errors: string[] = [];
  const vm = new CallReactionsViewModel({ userId: "@me:hs", deviceId: "ME" }, (m) => errors.push(m));
  return { vm, tracker, scheduler, errors };
}

const handOf = (sender: string, membershipEventId: string, id: string, ts: number) => ({
  type: "m.reaction",
  sender,
  event_id: id,
  origin_server_ts: ts,
  content: { "m.relates_to": { rel_type: "m.annotation", event_id: membershipEventId, key: "🖐️" } },
});

describe("CallReactionsViewModel", () => {
  it("is unavailable until attached, then numbers the hands in the order raised", async () => {
    const { vm, tracker, scheduler } = setup();
    expect(vm.available.getSnapshot()).toBe(false);
    await vm.toggleHand(); // nothing to do before the call is joined
    const mine = vm.tile("@me:hs", "ME");
    const theirs = vm.tile("@a:hs", "A");
    vm.attach(tracker);
    expect(vm.available.getSnapshot()).toBe(true);
    tracker.receive(handOf("@a:hs", "$a", "$h1", scheduler.now() - 10));
    expect(theirs.hand.getSnapshot()).toBe(1);
    await vm.toggleHand();
    expect(vm.handRaised.getSnapshot()).toBe(true);
    expect(mine.hand.getSnapshot()).toBe(2);
    tracker.receive({
      type: "m.room.redaction",
      sender: "@a:hs",
      event_id: "$r",
      origin_server_ts: 0,
      content: {},
      redacts: "$h1",
    });
    expect(theirs.hand.getSnapshot()).toBeUndefined();
    expect(mine.hand.getSnapshot()).toBe(1);
    await vm.toggleHand();
    expect(vm.handRaised.getSnapshot()).toBe(false);
    expect(mine.hand.getSnapshot()).toBeUndefined();
  });

  it("shows a reaction on the tile for its time; an unknown name keeps its emoji without a name", async () => {
    const { vm, tracker, scheduler } = setup();
    vm.attach(tracker);
    const mine = vm.tile("@me:hs", "ME");
    await vm.react({ emoji: "👏", name: "clapping" });
    expect(mine.reaction.getSnapshot()).toEqual({ emoji: "👏", name: "clapping" });
    await scheduler.advance(REACTION_SHOW_MS);
    expect(mine.reaction.getSnapshot()).toBeUndefined();
    tracker.receive({
      type: "io.element.call.reaction",
      sender: "@a:hs",
      event_id: "$x",
      origin_server_ts: 0,
      content: { "m.relates_to": { rel_type: "m.reference", event_id: "$a" }, emoji: "🦄", name: "unicorn" },
    });
    expect(vm.tile("@a:hs", "A").reaction.getSnapshot()).toEqual({ emoji: "🦄", name: "" });
  });

  it("says a failed send as the call's error", async () => {
    const { vm, tracker, errors } = setup(true);
    vm.attach(tracker);
    await vm.toggleHand();
    expect(errors).toEqual(["m.reaction was not sent"]);
    expect(vm.handRaised.getSnapshot()).toBe(false);
  });
});
