/**
 * The page of the OIDC browser test: starts a sign-in (discovery,
 * registration, authorization URL, state kept in sessionStorage across the
 * provider's pages) and finishes it when the provider redirects back, then
 * calls the homeserver with the new token. Bundled by Vite for Chromium.
 */
import { whoami } from "../../../../src/api/account";
import { createHttpClient } from "../../../../src/http/client";
import {
  completeAuthorization,
  discoverOidc,
  registerClient,
  startAuthorization,
  WebSignInStateStorage,
} from "../../../../src/auth/oidc";
import type { KeyValueStore } from "../../../../src/auth/oidc";

// The SDK compiles without DOM types; declare the two page globals used here.
declare const sessionStorage: KeyValueStore;
declare const location: { href: string; origin: string };

const storage = new WebSignInStateStorage(sessionStorage);

async function startSignIn(homeserverUrl: string): Promise<string> {
  sessionStorage.setItem("test_hs", homeserverUrl);
  const { metadata } = await discoverOidc(createHttpClient({ baseUrl: homeserverUrl, retry: false }));
  const redirectUri = `${location.origin}/callback`;
  const clientId = await registerClient(metadata, {
    clientName: "Lattice browser test",
    clientUri: `${location.origin}/`,
    redirectUris: [redirectUri],
  });
  const request = await startAuthorization({ metadata, clientId, homeserverUrl, redirectUri, storage });
  return request.url;
}

async function finishSignIn(): Promise<{ userId: string; deviceId: string | undefined; refresh: boolean }> {
  const homeserverUrl = sessionStorage.getItem("test_hs") ?? "";
  const { metadata } = await discoverOidc(createHttpClient({ baseUrl: homeserverUrl, retry: false }));
  const result = await completeAuthorization({ metadata, storage, callback: location.href });
  const me = await whoami(
    createHttpClient({
      baseUrl: result.homeserverUrl,
      accessToken: result.tokens.access_token,
      retry: false,
    }),
  );
  return { userId: me.user_id, deviceId: me.device_id, refresh: result.tokens.refresh_token !== "" };
}

Object.assign(globalThis, { startSignIn, finishSignIn });
