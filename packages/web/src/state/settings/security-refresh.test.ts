/**
 * Settings › Security follows changes made elsewhere: over HTTP on the test
 * homeserver with real crypto, the section of alice's first device is open
 * (no cross-signing yet); her second device sets up cross-signing; the
 * first device's section reads its status again by itself and shows the
 * master key, and stops watching when its scope ends.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
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

const SYNC = { sync: { pollTimeoutMs: 1_000, syncMode: "auto" as const } };

beforeAll(async () => {
  server = await startTestServer({ seed: "web-security-refresh" });
  first = await startClient(server, "alice", SYNC);
  second = await startAnotherDevice(server, first, SYNC);
}, 60_000);

afterAll(async () => {
  await Promise.all([first?.dispose(), second?.dispose()]);
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
}, 90_000);
