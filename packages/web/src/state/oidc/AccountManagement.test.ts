/**
 * Settings › Account's "Manage account": the URL built from the provider's
 * metadata (action when listed, stable names before MSC4191's, nothing
 * without an http(s) account_management_uri), and the view model against
 * the real test provider (its discovery document extended with the
 * account management fields), for an OIDC session and a password one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOidcProvider } from "@lattice/testserver/oidc";
import type { OidcProviderHandle } from "@lattice/testserver/oidc";
import type { KeyValueStorage } from "../../sdk";
import { WebSessionStorage } from "../../sdk";
import { AccountManagement, accountManagementUrl } from "./AccountManagement";
import { MemoryKeyValueStorage } from "@lattice/sdk/auth/storage";

const ACCOUNT_PAGE = "https://account.example.org/manage";

describe("accountManagementUrl", () => {
  it("adds the action (and device) only when the provider lists it", () => {
    const metadata = {
      account_management_uri: `${ACCOUNT_PAGE}?lang=en`,
      account_management_actions_supported: ["org.matrix.profile", "org.matrix.device_view"],
    };
    expect(accountManagementUrl(metadata, { action: "profile" })).toBe(
      `${ACCOUNT_PAGE}?lang=en&action=org.matrix.profile`,
    );
    expect(accountManagementUrl(metadata, { action: "deviceView", deviceId: "ABC DEF" })).toBe(
      `${ACCOUNT_PAGE}?lang=en&action=org.matrix.device_view&device_id=ABC+DEF`,
    );
    expect(accountManagementUrl(metadata, { action: "deactivate" })).toBe(`${ACCOUNT_PAGE}?lang=en`);
    expect(accountManagementUrl(metadata)).toBe(`${ACCOUNT_PAGE}?lang=en`);
  });

  it("uses MSC4191's earlier names when the provider lists only those", () => {
    const metadata = {
      account_management_uri: ACCOUNT_PAGE,
      account_management_actions_supported: ["org.matrix.sessions_list", "org.matrix.session_end"],
    };
    expect(accountManagementUrl(metadata, { action: "devicesList" })).toBe(
      `${ACCOUNT_PAGE}?action=org.matrix.sessions_list`,
    );
    expect(accountManagementUrl(metadata, { action: "deviceDelete", deviceId: "D1" })).toBe(
      `${ACCOUNT_PAGE}?action=org.matrix.session_end&device_id=D1`,
    );
  });

  it("is null without an http(s) account page", () => {
    expect(accountManagementUrl({})).toBeNull();
    expect(accountManagementUrl({ account_management_uri: "not a url" })).toBeNull();
    expect(accountManagementUrl({ account_management_uri: "javascript:alert(1)" })).toBeNull();
  });
});

describe("AccountManagement against the test provider", () => {
  let withPage: OidcProviderHandle;
  let plain: OidcProviderHandle;
  beforeAll(async () => {
    [withPage, plain] = await Promise.all([
      startOidcProvider({
        discovery: {
          account_management_uri: ACCOUNT_PAGE,
          account_management_actions_supported: ["org.matrix.profile", "org.matrix.devices_list"],
        },
      }),
      startOidcProvider(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([withPage?.stop(), plain?.stop()]);
  });

  function stored(oidc?: { issuer: string; clientId: string }): KeyValueStorage {
    const kv = new MemoryKeyValueStorage();
    new WebSessionStorage(kv).save({
      homeserverUrl: "http://127.0.0.1:9",
      userId: "@erin:localhost",
      deviceId: "ERINDEVICE",
      accessToken: "token",
      ...(oidc !== undefined ? { oidc } : {}),
    });
    return kv;
  }

  it("links an OIDC session to the provider's account page, opened on the profile", async () => {
    const vm = AccountManagement.forStoredSession(stored({ issuer: withPage.issuer, clientId: "c1" }));
    expect(vm.isOidc).toBe(true);
    expect(vm.url.getSnapshot()).toBeNull();
    await vm.load();
    expect(vm.url.getSnapshot()).toBe(`${ACCOUNT_PAGE}?action=org.matrix.profile`);
  });

  it("shows nothing for a provider without an account page, a password session, or an unreachable provider", async () => {
    const noPage = AccountManagement.forStoredSession(stored({ issuer: plain.issuer, clientId: "c1" }));
    await noPage.load();
    expect(noPage.url.getSnapshot()).toBeNull();

    let asked = 0;
    const password = new AccountManagement(undefined, () => {
      asked++;
      return Promise.reject(new Error("not asked"));
    });
    expect(AccountManagement.forStoredSession(stored()).isOidc).toBe(false);
    await password.load();
    expect(password.url.getSnapshot()).toBeNull();
    expect(asked).toBe(0);

    const down = new AccountManagement({ issuer: "http://127.0.0.1:9", clientId: "c1" });
    await down.load();
    expect(down.url.getSnapshot()).toBeNull();
  });
});
