/**
 * OIDC sign-in view-model logic against the real provider (oidc-provider
 * wired to the test homeserver): the offer on the sign-in screen, the
 * registration kept per issuer and reused, prompt=create, finishing from the
 * provider's answer into SessionData (device from the scope, provider and
 * client kept), the SPEC §8 messages of a denied consent and of a lost state,
 * and the soft-logout resume through the provider with the same device.
 */
import { driveProviderLogin, startMisbehavingProvider, startOidcTestbed } from "@lattice/testserver/oidc";
import type { OidcTestbed } from "@lattice/testserver/oidc";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer } from "@lattice/testserver";
import { MemorySessionStorage } from "@lattice/sdk/auth/storage";
import { loadOidc, Session } from "../../sdk";
import type { ValidatedIssuerMetadata } from "../../sdk";
import { SignInViewModel } from "../SignInViewModel";
import type { ServerStatus } from "../SignInViewModel";
import {
  clientIdFor,
  completeOidcSignIn,
  discoverOffer,
  isClientKnown,
  isOidcCallback,
  OIDC_CLIENTS_KEY,
  offerOf,
  withoutCallback,
} from "./oidc";
import { OidcSoftLogoutViewModel } from "./OidcSoftLogoutViewModel";
import { MemoryKeyValueStorage } from "@lattice/sdk/auth/storage";

const APP_URL = "http://127.0.0.1:9/app/";

let bed: OidcTestbed;

beforeAll(async () => {
  bed = await startOidcTestbed();
  bed.createUser("erin", "pw-erin");
});
afterAll(async () => {
  await bed?.stop();
});

function signInVm(
  homeserver: string,
  local: MemoryKeyValueStorage,
  tab: MemoryKeyValueStorage,
  navigated: string[],
): SignInViewModel {
  return new SignInViewModel({
    session: new Session(new MemorySessionStorage()),
    defaultHomeserver: homeserver,
    navigate: (url) => navigated.push(url),
    returnUrl: APP_URL,
    pendingStorage: tab,
    oidcStorage: { local, tab },
  });
}

function ready(vm: SignInViewModel): Extract<ServerStatus, { kind: "ready" }> {
  const status = vm.server.getSnapshot();
  if (status.kind !== "ready") throw new Error(`server not ready: ${JSON.stringify(status)}`);
  return status;
}

describe("the OIDC offer", () => {
  it("offers Create account only when the provider advertises prompt=create", () => {
    const metadata = { issuer: "https://auth.example.org:8443/" } as ValidatedIssuerMetadata;
    expect(offerOf(metadata)).toMatchObject({ host: "auth.example.org:8443", canCreate: false });
    expect(offerOf({ ...metadata, prompt_values_supported: ["create", "login"] }).canCreate).toBe(true);
  });

  it("is absent for a homeserver that names no provider", async () => {
    const plain = await startTestServer();
    try {
      const vm = signInVm(plain.url, new MemoryKeyValueStorage(), new MemoryKeyValueStorage(), []);
      await vm.start();
      expect(ready(vm).oidc).toEqual({ kind: "none" });
    } finally {
      await plain.stop();
    }
  });

  it("is the provider's host, registers once per issuer and keeps the sign-in state in the tab", async () => {
    const local = new MemoryKeyValueStorage();
    const tab = new MemoryKeyValueStorage();
    const navigated: string[] = [];
    const vm = signInVm(bed.homeserver.url, local, tab, navigated);
    await vm.start();
    const status = ready(vm);
    expect(status.oidc).toMatchObject({
      kind: "offered",
      offer: { host: new URL(bed.provider.issuer).host },
    });
    expect(status.info.password).toBe(true);

    await vm.continueWithOidc();
    expect(vm.error.getSnapshot()).toBeNull();
    const first = new URL(navigated[0] ?? "");
    expect(first.origin).toBe(bed.provider.issuer);
    expect(first.searchParams.get("redirect_uri")).toBe(APP_URL);
    expect(first.searchParams.get("prompt")).toBeNull();
    expect(first.searchParams.get("code_challenge_method")).toBe("S256");
    const stored = JSON.parse(local.getItem(OIDC_CLIENTS_KEY) ?? "{}") as Record<
      string,
      { clientId: string }
    >;
    expect(stored[bed.provider.issuer]?.clientId).toBe(first.searchParams.get("client_id"));
    expect([...tab.entries.keys()].some((k) => k.endsWith(first.searchParams.get("state") ?? "-"))).toBe(
      true,
    );

    // A second sign-in reuses the registration; Create account asks for the provider's registration page.
    vm.busy.set(null);
    await vm.continueWithOidc(true);
    const second = new URL(navigated[1] ?? "");
    expect(second.searchParams.get("client_id")).toBe(first.searchParams.get("client_id"));
    expect(second.searchParams.get("prompt")).toBe("create");
  });
});

describe("finishing an OIDC sign-in", () => {
  async function startAt(local: MemoryKeyValueStorage, tab: MemoryKeyValueStorage): Promise<string> {
    const navigated: string[] = [];
    const vm = signInVm(bed.homeserver.url, local, tab, navigated);
    await vm.start();
    await vm.continueWithOidc();
    return navigated[0] ?? "";
  }

  it("turns the provider's answer into a signed-in session on the device from the scope", async () => {
    const tab = new MemoryKeyValueStorage();
    const url = await startAt(new MemoryKeyValueStorage(), tab);
    const scope = new URL(url).searchParams.get("scope") ?? "";
    const deviceId = /urn:matrix:client:device:([A-Za-z0-9]+)/.exec(scope)?.[1];
    const callback = await driveProviderLogin(url, {
      username: "erin",
      password: "pw-erin",
      redirectUri: APP_URL,
    });
    expect(isOidcCallback(callback)).toBe(true);
    expect(withoutCallback(`${callback}#frag`)).toBe(`${APP_URL}#frag`);

    const data = await completeOidcSignIn(callback, tab, { deviceDisplayName: "Lattice Web" });
    expect(data).toMatchObject({
      userId: "@erin:localhost",
      deviceId,
      homeserverUrl: bed.homeserver.url,
      oidc: { issuer: bed.provider.issuer },
    });
    expect(data.refreshToken).toBeTruthy();
    expect(data.expiresAt).toBeGreaterThan(Date.now());
    const device = await fetch(`${bed.homeserver.url}/_matrix/client/v3/devices/${deviceId ?? ""}`, {
      headers: { Authorization: `Bearer ${data.accessToken ?? ""}` },
    });
    expect(await device.json()).toMatchObject({ device_id: deviceId, display_name: "Lattice Web" });
    const session = new Session(new MemorySessionStorage());
    await session.signIn(data);
    expect(session.state.getSnapshot()).toMatchObject({ kind: "signed_in", deviceId });
    // The state is used once: the same answer again has no stored state.
    await expect(completeOidcSignIn(callback, tab)).rejects.toThrow(
      "State required to finish logging in is not found in storage",
    );
  });

  it("reports a denied consent with the SPEC message", async () => {
    const tab = new MemoryKeyValueStorage();
    const url = await startAt(new MemoryKeyValueStorage(), tab);
    const callback = await driveProviderLogin(url, {
      username: "erin",
      password: "pw-erin",
      redirectUri: APP_URL,
      consent: "deny",
    });
    expect(new URL(callback).searchParams.get("error")).toBe("access_denied");
    await expect(completeOidcSignIn(callback, tab)).rejects.toThrow("Failed to exchange code for token");
  });
});

describe("a client id the provider has forgotten", () => {
  it("is dropped, registered again once, and the sign-in goes on with the new client", async () => {
    const local = new MemoryKeyValueStorage();
    const navigated: string[] = [];
    const vm = signInVm(bed.homeserver.url, local, new MemoryKeyValueStorage(), navigated);
    await vm.start();
    await vm.continueWithOidc();
    const first = new URL(navigated[0] ?? "").searchParams.get("client_id") ?? "";
    const offer = offerOf(
      (ready(vm).oidc as { offer: { metadata: ValidatedIssuerMetadata } }).offer.metadata,
    );
    expect(await isClientKnown(offer.metadata, first, APP_URL)).toBe(true);

    // The provider loses the client (as a restarted in-memory provider would): invalid_client.
    await bed.provider.forgetClient(first);
    const probe = await fetch(offer.metadata.token_endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://127.0.0.1:9" },
      body: new URLSearchParams({ grant_type: "authorization_code", code: "x", client_id: first }).toString(),
    });
    expect(await probe.json()).toMatchObject({ error: "invalid_client" });
    // A browser app can read that answer (CORS), so the check works from the app's origin too.
    expect(probe.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:9");
    expect(await isClientKnown(offer.metadata, first, APP_URL)).toBe(false);

    vm.busy.set(null);
    await vm.continueWithOidc();
    expect(vm.error.getSnapshot()).toBeNull();
    const second = new URL(navigated[1] ?? "").searchParams.get("client_id") ?? "";
    expect(second).not.toBe(first);
    const stored = JSON.parse(local.getItem(OIDC_CLIENTS_KEY) ?? "{}") as Record<
      string,
      { clientId: string }
    >;
    expect(stored[bed.provider.issuer]?.clientId).toBe(second);
    // The new client works at the provider: the sign-in completes.
    const callback = await driveProviderLogin(navigated[1] ?? "", {
      username: "erin",
      password: "pw-erin",
      redirectUri: APP_URL,
    });
    expect(new URL(callback).searchParams.get("code")).toBeTruthy();
  });

  it("a known client is kept; an unreachable provider is no reason to register again", async () => {
    const local = new MemoryKeyValueStorage();
    const offer = offerOf(await (await loadOidc()).discoverProvider(bed.provider.issuer));
    const id = await clientIdFor(offer, APP_URL, local);
    expect(await clientIdFor(offer, APP_URL, local)).toBe(id);
    const down: typeof fetch = () => Promise.reject(new TypeError("network down"));
    expect(await isClientKnown(offer.metadata, id, APP_URL, down)).toBe(true);
  });
});

describe("soft logout of an OIDC session", () => {
  function softLogoutVm(
    clientId: string,
    local: MemoryKeyValueStorage,
    tab: MemoryKeyValueStorage,
    navigated: string[],
  ) {
    const session = new Session(new MemorySessionStorage(), {
      homeserverUrl: bed.homeserver.url,
      userId: "@erin:localhost",
      deviceId: "ERINDEVICE",
      oidc: { issuer: bed.provider.issuer, clientId },
    });
    expect(session.state.getSnapshot().kind).toBe("soft_logged_out");
    return new OidcSoftLogoutViewModel(
      session,
      {},
      { storage: { local, tab }, redirectUri: APP_URL, navigate: (url) => navigated.push(url) },
    );
  }

  it("signs in again through the provider with the same client and device", async () => {
    const local = new MemoryKeyValueStorage();
    const navigated: string[] = [];
    const signIn = signInVm(bed.homeserver.url, local, new MemoryKeyValueStorage(), navigated);
    await signIn.start();
    await signIn.continueWithOidc();
    const clientId = new URL(navigated[0] ?? "").searchParams.get("client_id") ?? "";
    const tab = new MemoryKeyValueStorage();
    const vm = softLogoutVm(clientId, new MemoryKeyValueStorage(), tab, navigated);
    expect(vm.issuerHost).toBe(new URL(bed.provider.issuer).host);
    await vm.continueWithProvider();
    const url = new URL(navigated[1] ?? "");
    expect(url.searchParams.get("client_id")).toBe(clientId);
    expect(url.searchParams.get("scope")).toContain("urn:matrix:client:device:ERINDEVICE");
    expect(tab.entries.size).toBe(1);
  });

  it("registers again when the provider no longer knows the session's client, keeping the device", async () => {
    const local = new MemoryKeyValueStorage();
    const navigated: string[] = [];
    const vm = softLogoutVm("client-the-provider-forgot", local, new MemoryKeyValueStorage(), navigated);
    await vm.continueWithProvider();
    expect(vm.error.getSnapshot()).toBeNull();
    const url = new URL(navigated[0] ?? "");
    const clientId = url.searchParams.get("client_id");
    expect(clientId).not.toBe("client-the-provider-forgot");
    expect(JSON.parse(local.getItem(OIDC_CLIENTS_KEY) ?? "{}")).toMatchObject({
      [bed.provider.issuer]: { clientId },
    });
    expect(url.searchParams.get("scope")).toContain("urn:matrix:client:device:ERINDEVICE");
  });
});

describe("the legacy m.authentication fallback", () => {
  it("offers the provider named by the well-known homeserver discovery read, without fetching another", async () => {
    const bad = await startMisbehavingProvider();
    try {
      bad.misbehave({ homeserver: "well-known-only", wellKnown: "absent" });
      expect(await discoverOffer(bad.url)).toBeNull();
      const offer = await discoverOffer(bad.url, undefined, { "m.authentication": { issuer: bad.issuer } });
      expect(offer?.issuer).toBe(bad.issuer);
    } finally {
      await bad.stop();
    }
  });
});
