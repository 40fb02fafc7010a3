/**
 * Contract cases of the mutual rooms API (MSC2666): the stable endpoint
 * (mutual_rooms.yaml) and the unstable one, which the spec does not define.
 */
import type { ContractCase } from "../types";
import { expectThat } from "./contract-runner-url";
import * as mutualRooms from "../../../src/api/mutual-rooms";

const stable = {
  versions: ["v1.11"],
  unstable_features: { "uk.half-shot.msc2666.query_mutual_rooms.stable": true },
};
const unstable = {
  versions: ["v1.11"],
  unstable_features: { "uk.half-shot.msc2666.query_mutual_rooms": true },
};

export const cases: ContractCase[] = [
  {
    name: "getMutualRooms",
    call: (http) => mutualRooms.getMutualRooms(http, stable, "@alice:example.com", "next_batch_token"),
    expect: {
      method: "GET",
      path: "/_matrix/client/v1/mutual_rooms",
      query: { user_id: "@alice:example.com", from: "next_batch_token" },
    },
    response: { body: { joined: ["!OGEhHVWSdvArJzumhm:matrix.org"], count: 2, next_batch: "page3" } },
    check: (r) => {
      const page = r as mutualRooms.MutualRoomsPage;
      expectThat(page.joined.length === 1 && page.nextBatch === "page3", "page not read");
    },
  },
  {
    name: "getMutualRooms (unstable)",
    call: (http) => mutualRooms.getMutualRooms(http, unstable, "@alice:example.com", "tok"),
    expect: {
      method: "GET",
      path: "/_matrix/client/unstable/uk.half-shot.msc2666/user/mutual_rooms",
      query: { user_id: "@alice:example.com", batch_token: "tok" },
    },
    response: { body: { joined: ["!OGEhHVWSdvArJzumhm:matrix.org"], next_batch_token: "tok2" } },
    check: (r) =>
      expectThat((r as mutualRooms.MutualRoomsPage).nextBatch === "tok2", "unstable token not read"),
    noSpec: "MSC2666 unstable endpoint (uk.half-shot.msc2666), not in the Matrix spec",
  },
];
