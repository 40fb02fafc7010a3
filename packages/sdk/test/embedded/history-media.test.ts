/**
 * The embedded client's history and media through a host (our
 * ClientWidgetApi, its driver over the test homeserver): a room view opened
 * on a room with more history than the first read shows the newest page,
 * then pages back through read_events (growing limits) to the room's first
 * message, in order and without repeats; a host that caps its reads stops
 * the history where it stops. Relations come through read_relations.
 * Media goes through the host's MSC4039 actions: an embedded upload is a
 * file a normal client downloads byte for byte, and the reverse.
 */
import { beforeAll, expect, it } from "vitest";
import { api } from "../../src";
import type { Client, TimelineWindow } from "../../src";
import { downloadContent, getMediaConfig, getThumbnail, uploadContent } from "../../src/api/media";
import { waitFor } from "../client/helpers";
import type { HomeserverDriver } from "./hostDriver";
import { useEmbeddedRoom } from "./fixture";
import type { Embedded, HostUser } from "./fixture";

const MESSAGES = 75;
const fx = useEmbeddedRoom(
  "embedded-history",
  async (aliceHttp, bob) => {
    const { room_id: id } = await api.rooms.createRoom(bob.http, { preset: "public_chat", name: "History" });
    await api.membership.joinRoom(aliceHttp, id);
    for (let i = 1; i <= MESSAGES; i++)
      await api.send.sendEvent(bob.http, id, "m.room.message", `h${i}`, { msgtype: "m.text", body: `m${i}` });
    return id;
  },
  60_000,
);
let bob: Client;
let alice: HostUser;
let roomId: string;
beforeAll(() => {
  ({ bob, alice, roomId } = fx);
});

/** Alice's embedded room view inside a host holding her token. */
async function embedded(tune: (d: HomeserverDriver) => void = () => undefined): Promise<Embedded> {
  const { client, driver } = fx.open("room", { tune });
  await client.start();
  await waitFor(() => client.rooms.find(roomId), "the room in the embedded client");
  return { client, driver };
}

const bodiesOf = (w: TimelineWindow): string[] =>
  w.items
    .getSnapshot()
    .flatMap((i) => (typeof i.event.content["body"] === "string" ? [i.event.content["body"]] : []));

/** Pages the window back until it cannot; resolves with its message bodies. */
async function pageToStart(window: TimelineWindow): Promise<string[]> {
  await window.load();
  for (let i = 0; i < 20 && window.canPaginate("b"); i++) await window.paginate("b", 30);
  return bodiesOf(window);
}

const numbered = (from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => `m${from + i}`);

it("stops where the host stops: a host that reads at most 50 events gives the newest 50", async () => {
  const { client } = await embedded((d) => (d.maxRead = 50));
  const window = client.rooms.find(roomId)!.openTimeline({ limit: 500 });
  try {
    expect(await pageToStart(window)).toEqual(numbered(MESSAGES - 49, MESSAGES));
    expect(window.canPaginate("b")).toBe(false);
  } finally {
    window.close();
  }
}, 60_000);

it("opens on the newest page, then pages back through the host to the room's first message", async () => {
  const { client, driver } = await embedded();
  const room = client.rooms.find(roomId);
  const recent = (room?.recentEvents ?? []).map((e) => e.content["body"]).filter((b) => b !== undefined);
  expect(recent.at(-1)).toBe(`m${MESSAGES}`);
  expect(recent).not.toContain("m1");

  const window = room!.openTimeline({ limit: 500 });
  try {
    const got = await pageToStart(window);
    expect(got).toEqual(numbered(1, MESSAGES));
    expect(window.canPaginate("b")).toBe(false);
  } finally {
    window.close();
  }
  // The first read asked for a page; later reads asked for more than the host had synced.
  expect(driver.readLimits[0]).toBe(30);
  expect(Math.max(...driver.readLimits)).toBeGreaterThan(MESSAGES);

  // A message sent now arrives once, at the live end.
  await api.send.sendEvent(bob.http, roomId, "m.room.message", "late", { msgtype: "m.text", body: "late" });
  await waitFor(() => room!.recentEvents.some((e) => e.content["body"] === "late"), "the late message");
  const again = room!.openTimeline({ limit: 500 });
  try {
    await again.load();
    expect(bodiesOf(again).filter((b) => b === "late")).toHaveLength(1);
  } finally {
    again.close();
  }
}, 60_000);

it("reads an event's relations through the host's read_relations", async () => {
  const target = (await api.timeline.messages(bob.http, roomId, { dir: "b", limit: 1 })).chunk[0]!.event_id;
  await api.send.sendEvent(bob.http, roomId, "m.reaction", "r1", {
    "m.relates_to": { rel_type: "m.annotation", event_id: target, key: "👍" },
  });
  const { client } = await embedded();
  const r = await api.relations.relations(client.http, roomId, target, { relType: "m.annotation" });
  expect(r.chunk.map((e) => [e.type, e.sender, (e.content["m.relates_to"] as { key?: string }).key])).toEqual(
    [["m.reaction", bob.userId, "👍"]],
  );
}, 60_000);

it("uploads and downloads media through the host's MSC4039 actions", async () => {
  const { client } = await embedded();
  expect(await getMediaConfig(client.http)).toHaveProperty("m.upload.size");

  const bytes = new TextEncoder().encode("a file from the widget");
  const progress: number[] = [];
  const { content_uri: mxc } = await uploadContent(client.http, new Blob([bytes], { type: "text/plain" }), {
    onUploadProgress: (p) => progress.push(p.loaded),
  });
  expect(mxc).toMatch(/^mxc:\/\//);
  expect(progress).toEqual([bytes.length]);
  const atBob = await downloadContent(bob.http, mxc);
  expect(new TextDecoder().decode(atBob.data)).toBe("a file from the widget");

  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
  const fromBob = (await uploadContent(bob.http, png, { contentType: "image/png" })).content_uri;
  const inWidget = await downloadContent(client.http, fromBob);
  expect([...inWidget.data]).toEqual([...png]);
  expect(inWidget.contentType).toBe("image/png");
  // No thumbnail action: the whole file stands in for it.
  const thumb = await getThumbnail(client.http, fromBob, { width: 32, height: 32 });
  expect([...thumb.data]).toEqual([...png]);
}, 60_000);

it("receipts and typing have no widget action: they answer M_UNRECOGNIZED", async () => {
  const { client } = await embedded();
  const last = client.rooms.find(roomId)!.recentEvents.at(-1)!.event_id;
  await expect(api.receipts.sendReceipt(client.http, roomId, "m.read", last)).rejects.toMatchObject({
    errcode: "M_UNRECOGNIZED",
  });
  await expect(api.receipts.sendTyping(client.http, roomId, alice.userId, true)).rejects.toMatchObject({
    errcode: "M_UNRECOGNIZED",
  });
}, 60_000);
