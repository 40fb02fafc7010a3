/**
 * OIDC sign-in for the web app, over the SDK's OIDC client (loaded on
 * demand): what a homeserver offers (its provider and whether that provider
 * opens straight on account creation), the app's client registration kept
 * per issuer (checked before use: one the provider has forgotten is dropped
 * and registered again, once), sending the browser to the provider (state and PKCE verifier
 * in sessionStorage, which survives the redirect), and finishing when it
 * comes back (?code&state or ?error&state) with SessionData for the Session:
 * tokens, expiry, the device id the sign-in asked for in its scope, and the
 * provider and client so the SDK refreshes and revokes there.
 */
import { createHttpClient, loadOidc, updateDevice, whoami } from "../../sdk";
import type { FetchFn, KeyValueStorage, SessionData, ValidatedIssuerMetadata } from "../../sdk";

/** What the app calls itself at the provider (the consent page shows it). */
export const OIDC_CLIENT_NAME = "Lattice";
/** localStorage: the app's client id at each issuer, with the redirect URI it was registered for. */
export const OIDC_CLIENTS_KEY = "lattice.oidc.clients";
/** The query parameters a provider's answer adds to the redirect URI. */
const CALLBACK_PARAMS = ["code", "state", "error", "error_description", "error_uri", "iss", "session_state"];

/** A homeserver's OIDC provider, as the sign-in screen offers it. */
export interface OidcOffer {
  issuer: string;
  /** The issuer's host (with its port when it has one): "Continue with <host>". */
  host: string;
  /** The provider advertises prompt=create: an account can be created there. */
  canCreate: boolean;
  metadata: ValidatedIssuerMetadata;
}

/** Where the OIDC sign-in keeps things: the registrations (localStorage) and pending sign-ins (sessionStorage). */
export interface OidcStorage {
  local: KeyValueStorage;
  tab: KeyValueStorage;
}

/** The offer for validated provider metadata. */
export function offerOf(metadata: ValidatedIssuerMetadata): OidcOffer {
  const prompts = metadata["prompt_values_supported"];
  return {
    issuer: metadata.issuer,
    host: new URL(metadata.issuer).host,
    canCreate: Array.isArray(prompts) && prompts.includes("create"),
    metadata,
  };
}

/**
 * The homeserver's OIDC provider, or null when it advertises none ('OIDC
 * authentication not supported'). Any other failure is thrown as the SDK's
 * OidcError, whose message is SPEC's. `wellKnown`: the
 * /.well-known/matrix/client homeserver discovery read, for the legacy
 * m.authentication fallback.
 */
export async function discoverOffer(
  homeserverUrl: string,
  fetch?: FetchFn,
  wellKnown?: unknown,
): Promise<OidcOffer | null> {
  const { discoverOidc, OidcError } = await loadOidc();
  const http = createHttpClient({ baseUrl: homeserverUrl, retry: false, ...(fetch ? { fetch } : {}) });
  try {
    return offerOf((await discoverOidc(http, wellKnown !== undefined ? { wellKnown } : {})).metadata);
  } catch (err) {
    if (err instanceof OidcError && err.code === "NotSupported") return null;
    throw err;
  }
}

/** The app's own URL without query or fragment: where the provider sends the browser back. */
export function redirectUriOf(pageUrl: string): string {
  const url = new URL(pageUrl);
  url.search = "";
  url.hash = "";
  return url.href;
}

type Registrations = Record<string, { clientId: string; redirectUri: string }>;

function readRegistrations(local: KeyValueStorage): Registrations {
  try {
    const parsed: unknown = JSON.parse(local.getItem(OIDC_CLIENTS_KEY) ?? "{}");
    return typeof parsed === "object" && parsed !== null ? (parsed as Registrations) : {};
  } catch {
    return {};
  }
}

function forgetRegistration(local: KeyValueStorage, issuer: string, clientId: string): void {
  const all = readRegistrations(local);
  if (all[issuer]?.clientId !== clientId) return;
  delete all[issuer];
  local.setItem(OIDC_CLIENTS_KEY, JSON.stringify(all));
}

/** A code no provider issued: the token endpoint checks the client before it looks at the code. */
const PROBE_CODE = "lattice-client-check";

/**
 * Whether the provider still knows `clientId` (a restarted provider with
 * in-memory storage, or one that deleted the client, does not). The token
 * endpoint authenticates the client before it looks at the code, so a code
 * grant with a code nobody issued answers invalid_client for a forgotten
 * client and invalid_grant for a known one. Only a clear invalid_client
 * counts: no answer, or any other, keeps the client (the sign-in then says
 * what went wrong).
 */
export async function isClientKnown(
  metadata: ValidatedIssuerMetadata,
  clientId: string,
  redirectUri: string,
  fetch: FetchFn = globalThis.fetch,
): Promise<boolean> {
  try {
    const response = await fetch(metadata.token_endpoint, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: PROBE_CODE,
        redirect_uri: redirectUri,
        client_id: clientId,
        code_verifier: PROBE_CODE.padEnd(43, "0"),
      }).toString(),
    });
    const body: unknown = await response.json().catch(() => undefined);
    const error = typeof body === "object" && body !== null ? (body as { error?: unknown }).error : undefined;
    return error !== "invalid_client";
  } catch {
    return true;
  }
}

async function registerFor(offer: OidcOffer, redirectUri: string, local: KeyValueStorage): Promise<string> {
  const { registerClient } = await loadOidc();
  const clientId = await registerClient(offer.metadata, {
    clientName: OIDC_CLIENT_NAME,
    clientUri: new URL(redirectUri).origin + "/",
    redirectUris: [redirectUri],
    applicationType: "web",
  });
  local.setItem(
    OIDC_CLIENTS_KEY,
    JSON.stringify({ ...readRegistrations(local), [offer.issuer]: { clientId, redirectUri } }),
  );
  return clientId;
}

/**
 * The app's client id at the offer's issuer: the stored one when it was
 * registered for this redirect URI and the provider still knows it,
 * otherwise a new dynamic registration (client_name Lattice,
 * application_type web), stored for next time. `preferred` (a soft-logout
 * resume's own client) comes first when the provider knows it. A forgotten
 * client is dropped from storage and the app registers again, once.
 */
export async function clientIdFor(
  offer: OidcOffer,
  redirectUri: string,
  local: KeyValueStorage,
  options: { preferred?: string; fetch?: FetchFn } = {},
): Promise<string> {
  const known = readRegistrations(local)[offer.issuer];
  const stored =
    known !== undefined &&
    typeof known.clientId === "string" &&
    known.clientId !== "" &&
    known.redirectUri === redirectUri
      ? known.clientId
      : undefined;
  for (const candidate of new Set([options.preferred, stored])) {
    if (candidate === undefined) continue;
    if (await isClientKnown(offer.metadata, candidate, redirectUri, options.fetch)) return candidate;
    forgetRegistration(local, offer.issuer, candidate);
  }
  return await registerFor(offer, redirectUri, local);
}

/** What sending the browser to the provider needs. */
export interface BeginOidcParams {
  offer: OidcOffer;
  homeserverUrl: string;
  redirectUri: string;
  storage: OidcStorage;
  /** Open the provider's account creation page (prompt=create). */
  create?: boolean;
  /** The client id to prefer (a soft-logout resume keeps its own while the provider knows it). */
  clientId?: string;
  /** Sign in as this device again (soft-logout resume); a new one otherwise. */
  deviceId?: string;
}

/** Registers (or reuses the registration), stores the sign-in state and returns the provider URL to go to. */
export async function beginOidcSignIn(params: BeginOidcParams): Promise<string> {
  const { startAuthorization, WebSignInStateStorage } = await loadOidc();
  const clientId = await clientIdFor(params.offer, params.redirectUri, params.storage.local, {
    ...(params.clientId !== undefined ? { preferred: params.clientId } : {}),
  });
  const request = await startAuthorization({
    metadata: params.offer.metadata,
    clientId,
    homeserverUrl: params.homeserverUrl,
    redirectUri: params.redirectUri,
    storage: new WebSignInStateStorage(params.storage.tab),
    ...(params.create === true ? { prompt: "create" } : {}),
    ...(params.deviceId !== undefined ? { deviceId: params.deviceId } : {}),
  });
  return request.url;
}

/** Whether the page URL is a provider's answer (a state with a code or an error). */
export function isOidcCallback(pageUrl: string): boolean {
  const query = new URL(pageUrl).searchParams;
  return query.has("state") && (query.has("code") || query.has("error"));
}

/** The page URL without the provider's answer (for history.replaceState). */
export function withoutCallback(pageUrl: string): string {
  const url = new URL(pageUrl);
  for (const name of CALLBACK_PARAMS) url.searchParams.delete(name);
  return url.href;
}

/**
 * Finishes a sign-in from the provider's answer: the stored state (taken
 * once), the code exchange with its token checks, then whoami with the new
 * token for the user id; the device gets `deviceDisplayName` when given (a
 * provider sign-in has no initial_device_display_name). Failures are the
 * SDK's OidcErrors (SPEC §8
 * messages): an error answer such as access_denied is 'Failed to exchange
 * code for token'; no stored state is 'State required to finish logging in
 * is not found in storage'.
 */
export async function completeOidcSignIn(
  pageUrl: string,
  tab: KeyValueStorage,
  options: { fetch?: FetchFn; deviceDisplayName?: string } = {},
): Promise<SessionData> {
  const { fetch, deviceDisplayName } = options;
  const { completeAuthorization, discoverProvider, OidcError, WebSignInStateStorage } = await loadOidc();
  const storage = new WebSignInStateStorage(tab);
  const state = new URL(pageUrl).searchParams.get("state") ?? "";
  // The issuer is in the stored state; completeAuthorization takes (and checks) it.
  const pending = state === "" ? undefined : storage.get(state);
  const issuer =
    typeof pending === "object" && pending !== null ? (pending as { issuer?: unknown }).issuer : undefined;
  if (typeof issuer !== "string") {
    storage.remove(state);
    throw new OidcError("MissingOrInvalidStoredState");
  }
  const metadata = await discoverProvider(issuer);
  const result = await completeAuthorization({ metadata, storage, callback: pageUrl });
  const http = createHttpClient({
    baseUrl: result.homeserverUrl,
    accessToken: result.tokens.access_token,
    retry: false,
    ...(fetch ? { fetch } : {}),
  });
  const me = await whoami(http);
  if (deviceDisplayName !== undefined) {
    // A name is a nicety: the sign-in stands without it.
    await updateDevice(http, me.device_id ?? result.deviceId, { display_name: deviceDisplayName }).catch(
      () => undefined,
    );
  }
  return {
    homeserverUrl: result.homeserverUrl,
    ...(result.identityServerUrl !== undefined ? { identityServerUrl: result.identityServerUrl } : {}),
    userId: me.user_id,
    // The device the sign-in asked for in its scope (urn:matrix:client:device:<id>), which the server confirms.
    deviceId: me.device_id ?? result.deviceId,
    accessToken: result.tokens.access_token,
    refreshToken: result.tokens.refresh_token,
    expiresAt: result.expiresAt,
    oidc: { issuer: result.issuer, clientId: result.clientId, subject: result.idTokenClaims.sub },
  };
}
