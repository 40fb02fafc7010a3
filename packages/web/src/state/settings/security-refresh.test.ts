/**
 * Settings › Security follows changes made elsewhere: over HTTP on the test
 * homeserver with real crypto, the section of alice's first device is open
 * (no cross-signing yet); her second device sets up cross-signing; the
 * first device's section reads its status again by itself and shows the
 * master key; once its scope ends, a later change (a third device) reaches
 * the client but not the section.
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { startTestServer } from "@lattice/testserver";
import type { TestServerHandle } from "@lattice/testserver";
import { startAnotherDevice, startClient, waitFor } from "@lattice/sdk/test/client/helpers";
import type { Client } from "../../sdk";
import { Scope } from "../Scope";
import { PasswordPrompt } from "./PasswordPrompt";
import { SecuritySettings } from "./SecuritySettings";

let server: TestServerHandle;
let first: Client;
let second: Client;
let third: Client | undefined;

const SYNC = { sync: { pollTimeoutMs: 1_000, syncMode: "auto" as const } };

beforeAll(async () => {
  server = await startTestServer({ seed: "web-security-refresh" });
  first = await startClient(server, "alice", SYNC);
  second = await startAnotherDevice(server, first, SYNC);
}, 60_000);

afterAll(async () => {
  await Promise.all([first?.dispose(), second?.dispose(), third?.dispose()]);
  await server?.stop();
});

it("reads the status again when cross-signing is set up on another device", async () => {
  const scope = new Scope();
  const security = new SecuritySettings(first, new PasswordPrompt(), "off", scope);
  await security.load();
  expect(security.unavailable.getSnapshot()).toBeNull();
  expect(security.view.getSnapshot()?.crossSigning.identityKnown).toBe(false);
  expect(await second.crypto.crossSigning.bootstrap()).toEqual({ created: true });
  await waitFor(
    () => security.view.getSnapshot()?.crossSigning.identityKnown === true,
    "the first device's section shows the new identity",
    30_000,
  );
  scope.end();

  // After the scope: a change that a live watch would follow (a third
  // device of alice) reaches the first device, which does not read again.
  const load = vi.spyOn(security, "load");
  let seen = false;
  const probe = first.crypto.identityWarnings.watch(first.userId, () => (seen = true), { initial: false });
  third = await startAnotherDevice(server, first, SYNC);
  await waitFor(() => seen, "the first device sees alice's third device", 30_000);
  probe();
  expect(load).not.toHaveBeenCalled();
}, 120_000);
