/**
 * The demo's "Widget Room" shows its widget: seeded as `npm start` seeds it
 * (with the demo's loopback widget page), the room state holds one valid,
 * trusted widget (added by the room's creator), its filled url names the
 * widget and the user, and the page it points at is served.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { seedDemo } from "@lattice/testserver/demo/seed";
import { startWidgetPage } from "@lattice/testserver/demo/widget-page";
import { runUrlTemplate } from "@lattice/widget-api";
import { createClient } from "../../sdk";
import type { Client } from "../../sdk";
import { untilRoom } from "../rooms/testing";
import { widgetsOfRoom } from "./roomWidgets";

let server: TestServerHandle;
let page: { url: string; stop: () => Promise<void> };
let bob: Client | undefined;

beforeAll(async () => {
  [server, page] = await Promise.all([startTestServer(), startWidgetPage()]);
}, 30_000);

afterAll(async () => {
  await bob?.dispose();
  await page?.stop();
  await server?.stop();
});

describe("the demo's Widget Room", () => {
  it("holds one trusted widget whose page is served", async () => {
    const seed = await seedDemo(server.url, { historySize: 2, widgetUrl: page.url, log: () => undefined });
    expect(seed.problems).toEqual([]);
    const roomId = seed.rooms["widgets"] as string;
    const session = seed.users.bob;
    bob = createClient({
      baseUrl: server.url,
      accessToken: session.accessToken,
      userId: session.userId,
      deviceId: session.deviceId,
      crypto: false,
      httpOptions: { retry: false },
      sync: { pollTimeoutMs: 500 },
    });
    await bob.start();
    await untilRoom(bob, roomId);
    const widgets = widgetsOfRoom(bob.rooms.get(roomId).getSnapshot(), bob.userId);
    expect(widgets).toHaveLength(1);
    const [widget] = widgets;
    expect(widget?.trusted).toBe(true);
    expect(widget?.label).toBe("Demo widget");
    const url = runUrlTemplate((widget as NonNullable<typeof widget>).definition, {
      currentUserId: bob.userId,
    });
    expect(url).toContain(`widgetId=${widget?.id ?? ""}`);
    expect(url).toContain(`userId=${encodeURIComponent(bob.userId)}`);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Lattice demo widget");
  });
});
