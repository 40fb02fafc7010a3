/**
 * The call scenarios of calls.browser.test.ts against current Synapse:
 * a 1:1 call between two pages (place, answer, mute, video, screen share,
 * hold, DTMF, hang up, with media checked on the receiving page), and a
 * three-person mesh call that survives a member reloading.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { startSynapse, type SynapseHandle, type SynapseUser } from "@lattice/testserver/synapse";
import { launchChromium, MEDIA_ARGS, openSignedIn, serveWebApp } from "./browser";
import { meshCallSurvivesReload, oneToOneCall } from "./calls-scenarios";
import { callAs } from "./harness";

let synapse: SynapseHandle;
let app: { url: string; close(): Promise<void> };
let browser: Browser;
const users: Record<string, SynapseUser> = {};
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  synapse = await startSynapse({ version: "current" });
  for (const name of ["alice", "bob", "carol"])
    users[name] = await synapse.registerUser(name, { password: `${name}-password` });
  const token = (name: string): string => users[name]?.accessToken ?? "";
  const id = (name: string): string => users[name]?.userId ?? "";
  const pair = await callAs(synapse.url, token("alice"), "/createRoom", {
    name: "Call room",
    preset: "private_chat",
    invite: [id("bob")],
  });
  await callAs(synapse.url, token("bob"), `/join/${encodeURIComponent(String(pair["room_id"]))}`);
  const group = await callAs(synapse.url, token("alice"), "/createRoom", {
    name: "Group room",
    preset: "private_chat",
    // Members announce themselves in the call with their own member state (MSC3401).
    power_level_content_override: { events: { "org.matrix.msc3401.call.member": 0 } },
    invite: [id("bob"), id("carol")],
  });
  const groupId = encodeURIComponent(String(group["room_id"]));
  await callAs(synapse.url, token("bob"), `/join/${groupId}`);
  await callAs(synapse.url, token("carol"), `/join/${groupId}`);
  [app, browser] = await Promise.all([
    serveWebApp({ VITE_LATTICE_HOMESERVER: synapse.url, LATTICE_E2E_NO_WATCH: "1" }),
    launchChromium(MEDIA_ARGS),
  ]);
}, 180_000);

afterAll(async () => {
  for (const close of closers) await close().catch(() => undefined);
  await browser?.close().catch(() => undefined);
  await app?.close().catch(() => undefined);
  await synapse?.stop();
});

async function signIn(name: string): Promise<Page> {
  const { context, page } = await openSignedIn(browser, {
    appUrl: app.url,
    homeserver: synapse.url,
    user: name,
    password: `${name}-password`,
    stepTimeoutMs: 45_000,
  });
  closers.push(() => context.close());
  return page;
}

describe("calls over Synapse", () => {
  it("places, answers, mutes, adds video, shares the screen, holds and hangs up a 1:1 call", async () => {
    await oneToOneCall(await signIn("alice"), await signIn("bob"), "Call room", "alice");
  }, 300_000);

  it("connects every pair of a three-person mesh call, which survives a member reloading", async () => {
    const pages = [await signIn("alice"), await signIn("bob"), await signIn("carol")];
    const ids = ["alice", "bob", "carol"].map((n) => users[n]?.userId ?? "");
    await meshCallSurvivesReload(pages, ids, "Group room");
  }, 400_000);
});
