/**
 * Shared steps of the OIDC error tests: discovery and sign-in against the
 * misbehaving provider, up to the point where a test's misbehaviour bites.
 */
import type { MisbehavingProvider } from "@lattice/testserver/oidc";
import { createHttpClient } from "../../../src/http/client";
import {
  completeAuthorization,
  discoverOidc,
  MemorySignInStateStorage,
  registerClient,
  startAuthorization,
} from "../../../src/auth/oidc";
import type { OidcSignInResult, ValidatedIssuerMetadata } from "../../../src/auth/oidc";

export const REDIRECT_URI = "http://127.0.0.1:9/callback";

/** Discovery through the fake homeserver's auth_metadata. */
export function discover(bad: MisbehavingProvider) {
  return discoverOidc(createHttpClient({ baseUrl: bad.url, retry: false }));
}

/** The redirect a browser would follow from the authorization URL (the fake provider signs in at once). */
export async function followAuthorization(url: string): Promise<string> {
  const response = await fetch(url, { redirect: "manual" });
  const location = response.headers.get("location");
  if (location === null) throw new Error(`no redirect from ${url}: ${response.status}`);
  return location;
}

/** Registers, starts a sign-in and comes back with the code; returns what completing needs. */
export async function signInUntilCallback(
  metadata: ValidatedIssuerMetadata,
  homeserverUrl: string,
  now: () => number = Date.now,
) {
  const clientId = await registerClient(metadata, {
    clientName: "Lattice test",
    clientUri: "http://127.0.0.1:9/",
    redirectUris: [REDIRECT_URI],
  });
  const storage = new MemorySignInStateStorage();
  const request = await startAuthorization({
    metadata,
    clientId,
    homeserverUrl,
    redirectUri: REDIRECT_URI,
    storage,
    now,
  });
  const callback = await followAuthorization(request.url);
  return { clientId, storage, request, callback };
}

/** The whole sign-in against the fake provider. */
export async function signIn(
  metadata: ValidatedIssuerMetadata,
  homeserverUrl: string,
): Promise<OidcSignInResult> {
  const { storage, callback } = await signInUntilCallback(metadata, homeserverUrl);
  return completeAuthorization({ metadata, storage, callback });
}
