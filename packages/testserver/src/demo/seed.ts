/**
 * The demo data for `npm start`, created through the HTTP API of a running
 * server: users alice, bob and carol (passwords "lattice-alice",
 * "lattice-bob", "lattice-carol"), a lounge with a few hundred messages of
 * deterministic history, a thread, reactions, an edit and an image, a DM
 * between alice and bob, a space with child rooms, an encrypted room and a
 * room with a widget. Every step is independent: one that fails (an
 * endpoint not there yet) is logged and the rest go on.
 */
import { DemoClient, DemoRequestError, demoRequest } from "./client";
import type { DemoSession } from "./client";
import { demoPng } from "./png";
import { demoLine } from "./text";

/** The demo accounts, as documented for `npm start`. */
export const DEMO_USERS = [
  { name: "alice", password: "lattice-alice", displayName: "Alice Liddell" },
  { name: "bob", password: "lattice-bob", displayName: "Bob Builder" },
  { name: "carol", password: "lattice-carol", displayName: "Carol Danvers" },
] as const;

export type DemoUserName = (typeof DEMO_USERS)[number]["name"];

export interface SeedOptions {
  /** Messages in the lounge's history (default 300). */
  historySize?: number;
  /** The widget page the widget room points at (a loopback URL). */
  widgetUrl?: string;
  /** Progress and problems (default: console.log). */
  log?: (message: string) => void;
}

export interface DemoSeed {
  users: Record<DemoUserName, DemoSession>;
  /** Room ids by demo name: lounge, dm, space, design, engineering, encrypted, widgets. */
  rooms: Record<string, string>;
  /** Steps that failed, with why. */
  problems: string[];
}

const V3 = "/_matrix/client/v3";

/** Registers (or, when already there, logs in) a demo user. */
async function account(baseUrl: string, name: string, password: string): Promise<DemoSession> {
  const toSession = (res: Record<string, unknown>): DemoSession => ({
    userId: String(res["user_id"]),
    accessToken: String(res["access_token"]),
    deviceId: String(res["device_id"]),
  });
  try {
    return toSession(
      await demoRequest(baseUrl, "POST", `${V3}/register`, {
        username: name,
        password,
        initial_device_display_name: "Lattice demo seed",
        auth: { type: "m.login.dummy" },
      }),
    );
  } catch (err) {
    if (!(err instanceof DemoRequestError) || err.errcode !== "M_USER_IN_USE") throw err;
    return toSession(
      await demoRequest(baseUrl, "POST", `${V3}/login`, {
        type: "m.login.password",
        identifier: { type: "m.id.user", user: name },
        password,
        initial_device_display_name: "Lattice demo seed",
      }),
    );
  }
}

/** Populates a running server with the demo data. */
export async function seedDemo(baseUrl: string, options: SeedOptions = {}): Promise<DemoSeed> {
  const log = options.log ?? ((m: string) => console.log(m));
  const problems: string[] = [];
  const rooms: Record<string, string> = {};
  const step = async (name: string, fn: () => Promise<void>): Promise<void> => {
    try {
      await fn();
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      problems.push(`${name}: ${why}`);
      log(`[demo] skipped ${name}: ${why}`);
    }
  };

  const sessions = {} as Record<DemoUserName, DemoSession>;
  for (const u of DEMO_USERS) sessions[u.name] = await account(baseUrl, u.name, u.password);
  const alice = new DemoClient(baseUrl, sessions.alice);
  const bob = new DemoClient(baseUrl, sessions.bob);
  const carol = new DemoClient(baseUrl, sessions.carol);
  const people = [alice, bob, carol];
  const serverName = alice.userId.slice(alice.userId.indexOf(":") + 1);

  await step("display names", async () => {
    for (const [i, u] of DEMO_USERS.entries()) await people[i]?.setDisplayName(u.displayName);
  });

  await step("lounge", async () => {
    const lounge = await alice.createRoom({
      name: "Lattice Lounge",
      topic: "Everything Lattice: the SDK, the web app and the widget API",
      preset: "public_chat",
      visibility: "public",
      room_alias_name: "lounge",
    });
    rooms["lounge"] = lounge;
    await bob.join(lounge);
    await carol.join(lounge);
    await history(lounge, people, options.historySize ?? 300);
  });

  const lounge = rooms["lounge"];
  if (lounge !== undefined) {
    await step("thread", async () => {
      const root = await alice.sendText(lounge, "Thread: what should we demo next? Reply in here 🧵");
      let last = root;
      const replies: Array<[DemoClient, string]> = [
        [bob, "Group calls with encrypted media keys!"],
        [carol, "The widget host, definitely."],
        [alice, "Both. Let's start with widgets."],
        [bob, "I'll prepare the call demo for next week."],
      ];
      for (const [who, body] of replies) {
        last = await who.sendText(lounge, body, {
          "m.relates_to": {
            rel_type: "m.thread",
            event_id: root,
            is_falling_back: true,
            "m.in_reply_to": { event_id: last },
          },
        });
      }
      await step("reactions", async () => {
        await bob.send(lounge, "m.reaction", {
          "m.relates_to": { rel_type: "m.annotation", event_id: root, key: "👍" },
        });
        await carol.send(lounge, "m.reaction", {
          "m.relates_to": { rel_type: "m.annotation", event_id: root, key: "👍" },
        });
        await alice.send(lounge, "m.reaction", {
          "m.relates_to": { rel_type: "m.annotation", event_id: root, key: "🎉" },
        });
      });
    });

    await step("edit", async () => {
      const original = await carol.sendText(lounge, "Helo everyone, the demo server is up!");
      await carol.send(lounge, "m.room.message", {
        msgtype: "m.text",
        body: "* Hello everyone, the demo server is up!",
        "m.new_content": { msgtype: "m.text", body: "Hello everyone, the demo server is up!" },
        "m.relates_to": { rel_type: "m.replace", event_id: original },
      });
    });

    await step("image", async () => {
      const png = demoPng(96);
      const url = await alice.upload(png, "image/png", "lattice.png");
      await alice.send(lounge, "m.room.message", {
        msgtype: "m.image",
        body: "lattice.png",
        url,
        info: { mimetype: "image/png", size: png.length, w: 96, h: 96 },
      });
    });
  }

  await step("direct message", async () => {
    const dm = await alice.createRoom({
      preset: "trusted_private_chat",
      is_direct: true,
      invite: [bob.userId],
    });
    rooms["dm"] = dm;
    await bob.join(dm);
    await alice.setAccountData("m.direct", { [bob.userId]: [dm] });
    await bob.setAccountData("m.direct", { [alice.userId]: [dm] });
    await alice.sendText(dm, "Hi Bob! This is our direct chat.");
    await bob.sendText(dm, "Hi Alice 👋 Lunch later?");
    await alice.sendText(dm, "Sure, 12:30 at the usual place.");
  });

  await step("space", async () => {
    const space = await alice.createRoom({
      name: "Lattice Space",
      topic: "A space with the project's rooms",
      preset: "public_chat",
      creation_content: { type: "m.space" },
      power_level_content_override: { events_default: 100 },
    });
    rooms["space"] = space;
    const children: Array<[string, string]> = [];
    for (const [key, name] of [
      ["design", "Design"],
      ["engineering", "Engineering"],
    ] as const) {
      const child = await alice.createRoom({ name, preset: "public_chat" });
      rooms[key] = child;
      children.push([key, child]);
    }
    if (lounge !== undefined) children.push(["lounge", lounge]);
    for (const [key, child] of children) {
      await alice.setState(space, "m.space.child", child, { via: [serverName], order: key });
      await alice.setState(child, "m.space.parent", space, { via: [serverName], canonical: true });
    }
    for (const who of [bob, carol]) {
      await who.join(space);
      for (const [key, child] of children) if (key !== "lounge") await who.join(child);
    }
    const design = rooms["design"];
    if (design !== undefined) await carol.sendText(design, "New icons are in the shared folder.");
    const engineering = rooms["engineering"];
    if (engineering !== undefined) {
      await history(engineering, [bob, carol, alice], 120, 1000);
      await bob.sendText(engineering, "CI is green again ✅");
    }
  });

  await step("encrypted room", async () => {
    const secret = await alice.createRoom({
      name: "Secret Garden",
      preset: "private_chat",
      invite: [bob.userId, carol.userId],
      initial_state: [
        { type: "m.room.encryption", state_key: "", content: { algorithm: "m.megolm.v1.aes-sha2" } },
      ],
    });
    rooms["encrypted"] = secret;
    await bob.join(secret);
    await carol.join(secret);
    // The demo has no real Megolm sessions: these are placeholders that clients show as undecryptable.
    for (let i = 0; i < 6; i++) {
      const who = people[i % people.length] ?? alice;
      await who.send(secret, "m.room.encrypted", {
        algorithm: "m.megolm.v1.aes-sha2",
        ciphertext: Buffer.from(`demo ciphertext ${i}`).toString("base64"),
        sender_key: "DemoSenderKeyDemoSenderKeyDemoSenderKey0",
        session_id: "DemoSessionDemoSessionDemoSession0",
        device_id: who.session.deviceId,
      });
    }
  });

  await step("widget room", async () => {
    const widgets = await alice.createRoom({
      name: "Widget Room",
      preset: "private_chat",
      invite: [bob.userId],
    });
    rooms["widgets"] = widgets;
    await bob.join(widgets);
    const url = options.widgetUrl ?? "http://127.0.0.1:8009/widget.html";
    await alice.setState(widgets, "im.vector.modular.widgets", "lattice-demo-widget", {
      type: "m.custom",
      url: `${url}?widgetId=$matrix_widget_id&userId=$matrix_user_id`,
      name: "Demo widget",
      id: "lattice-demo-widget",
      creatorUserId: alice.userId,
      data: {},
    });
    await alice.sendText(widgets, "This room has a demo widget pinned.");
  });

  log(`[demo] seeded ${Object.keys(rooms).length} rooms with ${problems.length} problem(s)`);
  return { users: sessions, rooms, problems };
}

/** Sends the lounge's history: deterministic lines from rotating senders. */
async function history(roomId: string, people: DemoClient[], count: number, offset = 0): Promise<void> {
  for (let n = 0; n < count; n++) {
    const who = people[(n * 5 + Math.floor(n / 3)) % people.length];
    if (who) await who.sendText(roomId, demoLine(n + offset));
  }
}
