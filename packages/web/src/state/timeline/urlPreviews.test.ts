/**
 * The URL preview policy of the timeline's actions (issue 24), over HTTP
 * against the test homeserver. The links point at a page served on
 * loopback that counts its visitors: a preview the policy refuses must
 * leave it unvisited. Covered: a member's link is previewed; a notice's,
 * a stranger's (no shared joined room, unless the account allows it) and
 * an encrypted room's are not; the org.matrix.(room.)preview_urls settings
 * in their order; and a refused URL (403) is not asked for again.
 */
import { createServer } from "node:http";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { createClient } from "../../sdk";
import type { Client, Room } from "../../sdk";
import { signUp, until, untilRoom } from "../rooms/testing";
import { UrlPreviewSettings } from "../settings/UrlPreviewSettings";
import { TimelineActions } from "./TimelineActions";
import {
  PREVIEW_STRANGERS_TYPE,
  PREVIEW_URLS_ACCOUNT_TYPE,
  PREVIEW_URLS_ROOM_TYPE,
} from "./urlPreviewPolicy";

let server: TestServerHandle;
let page: Server;
let pageUrl = "";
/** Visits of the page, by path: the homeserver fetching it for a preview. */
const visits = new Map<string, number>();
let alice: Client;
let bob: Client;
let carol: Client;
let room = "";
let encryptedRoom = "";
/** /preview_url requests alice's client made. */
const previewRequests: string[] = [];

async function signUpCounting(name: string): Promise<Client> {
  const res = await fetch(`${server.url}/_matrix/client/v3/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: name, password: `${name}-password`, auth: { type: "m.login.dummy" } }),
  });
  const body = (await res.json()) as { access_token: string; user_id: string; device_id: string };
  const client = createClient({
    baseUrl: server.url,
    accessToken: body.access_token,
    userId: body.user_id,
    deviceId: body.device_id,
    crypto: false,
    httpOptions: {
      retry: false,
      fetch: (url, init) => {
        if (url.includes("/preview_url")) previewRequests.push(url);
        return fetch(url, init);
      },
    },
    sync: { pollTimeoutMs: 500 },
  });
  await client.start();
  return client;
}

function actionsIn(client: Client, roomId: string): TimelineActions {
  const r: Room = client.rooms.get(roomId);
  return new TimelineActions({ client, room: r, find: () => undefined, items: () => [] });
}

/** A message as the timeline gives it to the actions. */
function message(sender: Client, body: string, msgtype = "m.text") {
  return { sender: sender.userId, content: { msgtype, body } };
}

/** A link to the counting page, unique per case. */
function link(name: string): string {
  return `${pageUrl}/${name}`;
}

async function setAccount(type: string, content: Record<string, unknown>): Promise<void> {
  await alice.accountData.set(type, content);
  await until(
    () => JSON.stringify(alice.rooms.accountData(type)?.content) === JSON.stringify(content),
    `${type} synced`,
  );
}

beforeAll(async () => {
  server = await startTestServer();
  page = createServer((req, res) => {
    visits.set(req.url ?? "", (visits.get(req.url ?? "") ?? 0) + 1);
    res.writeHead(200, { "content-type": "text/html" });
    res.end(`<html><head><title>Page ${req.url ?? ""}</title></head></html>`);
  });
  await new Promise<void>((r) => page.listen(0, "127.0.0.1", () => r()));
  const address = page.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  pageUrl = `http://127.0.0.1:${address.port}`;

  [alice, bob, carol] = await Promise.all([
    signUpCounting("alice"),
    signUp(server.url, "bob"),
    signUp(server.url, "carol"),
  ]);
  const create = async (body: Record<string, unknown>): Promise<string> =>
    (await bob.http.request<{ room_id: string }>({ method: "POST", path: "/createRoom", body })).room_id;
  room = await create({ name: "Links", preset: "public_chat" });
  encryptedRoom = await create({
    name: "Secret",
    preset: "public_chat",
    initial_state: [
      { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
    ],
  });
  await untilRoom(bob, room);
  for (const c of [alice, carol]) await c.moderation.join(room);
  await alice.moderation.join(encryptedRoom);
  await untilRoom(alice, room);
  await untilRoom(alice, encryptedRoom);
  // carol posts, then leaves: she shares no joined room with alice any more.
  await carol.moderation.leave(room);
  await until(
    () => alice.rooms.get(room).getSnapshot().state.membershipOf(carol.userId) === "leave",
    "carol left",
  );
}, 60_000);

afterAll(async () => {
  for (const c of [alice, bob, carol]) await c?.stop();
  await new Promise((r) => page?.close(r));
  await server?.stop();
});

describe("URL preview policy", () => {
  it("previews a member's link, and nothing for a notice, a stranger or an encrypted room", async () => {
    const actions = actionsIn(alice, room);
    const member = message(bob, `see ${link("member")}`);
    expect(actions.previewRefusal(member)).toBeNull();
    expect(await actions.urlPreview(link("member"), member)).toMatchObject({ "og:title": "Page /member" });
    expect(visits.get("/member")).toBe(1);

    const notice = message(bob, link("notice"), "m.notice");
    expect(actions.previewRefusal(notice)).toBe("notice");
    expect(await actions.urlPreview(link("notice"), notice)).toBeNull();

    const stranger = message(carol, link("stranger"));
    expect(actions.previewRefusal(stranger)).toBe("stranger");
    expect(await actions.urlPreview(link("stranger"), stranger)).toBeNull();

    const secret = message(bob, link("secret"));
    expect(actionsIn(alice, encryptedRoom).previewRefusal(secret)).toBe("encrypted");
    expect(await actionsIn(alice, encryptedRoom).urlPreview(link("secret"), secret)).toBeNull();

    expect(visits.has("/notice")).toBe(false);
    expect(visits.has("/stranger")).toBe(false);
    expect(visits.has("/secret")).toBe(false);
    expect(previewRequests.some((u) => /notice|stranger|secret/.test(decodeURIComponent(u)))).toBe(false);

    // Allowing strangers lets carol's link through (notices stay refused).
    await setAccount(PREVIEW_STRANGERS_TYPE, { strangers: true });
    expect(actions.previewRefusal(stranger)).toBeNull();
    expect(actions.previewRefusal(notice)).toBe("notice");
    await setAccount(PREVIEW_STRANGERS_TYPE, { strangers: false });
    expect(actions.previewRefusal(stranger)).toBe("stranger");
  });

  it("honours org.matrix.preview_urls and org.matrix.room.preview_urls in their order", async () => {
    const actions = actionsIn(alice, room);
    const m = message(bob, link("settings"));
    // The admins' room default turns previews off...
    await bob.state.setState(room, PREVIEW_URLS_ROOM_TYPE, "", { disable: true });
    await until(
      () => alice.rooms.get(room).getSnapshot().state.content(PREVIEW_URLS_ROOM_TYPE)?.["disable"] === true,
      "room default synced",
    );
    expect(actions.previewRefusal(m)).toBe("disabled");
    expect(await actions.urlPreview(link("settings"), m)).toBeNull();
    // ...the reader's own choice for the room wins over it...
    await alice.accountData.setRoom(room, PREVIEW_URLS_ROOM_TYPE, { disable: false });
    await until(
      () =>
        alice.rooms.get(room).getSnapshot().accountData.get(PREVIEW_URLS_ROOM_TYPE)?.content["disable"] ===
        false,
      "room choice synced",
    );
    expect(actions.previewRefusal(m)).toBeNull();
    await alice.accountData.setRoom(room, PREVIEW_URLS_ROOM_TYPE, {});
    await bob.state.setState(room, PREVIEW_URLS_ROOM_TYPE, "", { disable: false });
    await until(
      () =>
        alice.rooms.get(room).getSnapshot().accountData.get(PREVIEW_URLS_ROOM_TYPE)?.content["disable"] ===
          undefined &&
        alice.rooms.get(room).getSnapshot().state.content(PREVIEW_URLS_ROOM_TYPE)?.["disable"] === false,
      "settings cleared",
    );
    // ...and the account turning previews off wins over a room default that turns them on.
    await setAccount(PREVIEW_URLS_ACCOUNT_TYPE, { disable: true });
    expect(actions.previewRefusal(m)).toBe("disabled");
    await setAccount(PREVIEW_URLS_ACCOUNT_TYPE, { disable: false });
    expect(actions.previewRefusal(m)).toBeNull();
    expect(visits.has("/settings")).toBe(false);
  });

  it("the settings view model writes what the policy reads", async () => {
    const settings = new UrlPreviewSettings(alice);
    const actions = actionsIn(alice, room);
    const m = message(bob, link("vm"));
    await settings.setEnabled(false);
    await until(() => actions.previewRefusal(m) === "disabled", "account off");
    expect(settings.enabled.getSnapshot()).toBe(false);
    await settings.setRoomChoice(room, "on");
    await until(() => actions.previewRefusal(m) === null, "on in this room");
    expect(settings.roomChoice(room)).toBe("on");
    await settings.setRoomChoice(room, "default");
    await until(() => actions.previewRefusal(m) === "disabled", "back to the account's choice");
    await settings.setEnabled(true);
    await until(() => actions.previewRefusal(m) === null, "account on");
    await settings.setStrangers(true);
    await until(() => actions.previewRefusal(message(carol, link("vm"))) === null, "strangers allowed");
    await settings.setStrangers(false);
    expect(visits.has("/vm")).toBe(false);
  });

  it("asks once for a URL the server refused (403), however often the room is shown", async () => {
    const refused = "https://example.org/refused";
    const m = message(bob, refused);
    for (let i = 0; i < 3; i++) expect(await actionsIn(alice, room).urlPreview(refused, m)).toBeNull();
    expect(previewRequests.filter((u) => u.includes(encodeURIComponent(refused)))).toHaveLength(1);
  });
});
