/**
 * OIDC discovery: which provider the homeserver delegates sign-in to, and
 * what that provider can do. The issuer comes from the homeserver's
 * auth_metadata (stable, then MSC2965's unstable path, in api/; validated
 * as strictly as the provider's), or on older servers from MSC2965's
 * unstable /auth_issuer, or from the legacy m.authentication of
 * /.well-known/matrix/client; the provider's own openid-configuration is
 * then fetched (5 s time-out, SPEC.md §7) and validated (validate.ts).
 */
import { discoveryRequest } from "oauth4webapi";
import { getAuthMetadata } from "../../api/auth-metadata";
import { AUTH_METADATA_PREFIX } from "../../api/unstable";
import { isUnrecognisedError } from "../../http/errors";
import type { HttpApi } from "../../http/types";
import { Prefix } from "../../http/types";
import { OidcError } from "./errors";
import { isRecord, oauthHttpOptions, readJson, withTimeout } from "./fetch";
import type { OidcRequestOptions } from "./fetch";
import { isHttpUrl, USABLE_RESPONSE_MODES, validateIssuerMetadata, validateServerMetadata } from "./validate";
import type { ValidatedServerMetadata } from "./validate";
import type { ValidatedIssuerMetadata } from "./wire-types";

/** SPEC §7: the openid-configuration request times out after 5 s. */
export const DISCOVERY_TIMEOUT_MS = 5_000;

/** What discovery found: the issuer and its validated metadata. */
export interface OidcDiscovery {
  issuer: string;
  metadata: ValidatedIssuerMetadata;
}

/** What the homeserver says about its sign-in. */
export interface HomeserverAuthentication {
  issuer: string;
  /** The homeserver's own auth_metadata, validated, when it serves one. */
  metadata?: ValidatedServerMetadata;
  /** The legacy well-known's account management URL (m.authentication's `account`). */
  account?: string;
}

/** Options of the homeserver side of discovery. */
export interface HomeserverDiscoveryOptions {
  signal?: AbortSignal;
  /**
   * The /.well-known/matrix/client document already read for this server
   * (homeserver discovery reads it from the server name's host); without
   * it, the one on the homeserver's own host is read when needed.
   */
  wellKnown?: unknown;
}

/** MSC2965's legacy discovery key in /.well-known/matrix/client, stable and unstable. */
export const WELL_KNOWN_AUTHENTICATION_KEYS = [
  "m.authentication",
  "org.matrix.msc2965.authentication",
] as const;

const unrecognised = (err: unknown): boolean => isUnrecognisedError(err);

/**
 * How the homeserver delegates sign-in, tried in turn: its auth_metadata
 * (stable, then MSC2965 unstable; validated as strictly as the issuer's
 * metadata, validate.ts), MSC2965's /auth_issuer, then the legacy
 * m.authentication in /.well-known/matrix/client. 'OIDC authentication not
 * supported' when none of them names a provider; 'OIDC is misconfigured'
 * when one names no valid issuer; 'Something went wrong with OIDC
 * discovery' when auth_metadata or auth_issuer fail otherwise.
 */
export async function discoverHomeserverAuth(
  http: HttpApi,
  options: HomeserverDiscoveryOptions = {},
): Promise<HomeserverAuthentication> {
  const signal = options.signal ? { signal: options.signal } : {};
  let doc: unknown;
  try {
    doc = await getAuthMetadata(http, signal);
  } catch (err) {
    if (!unrecognised(err)) throw new OidcError("General", { cause: err });
    return await legacyDiscovery(http, options);
  }
  const metadata = validateServerMetadata(doc, { requireJwks: false });
  return { issuer: metadata.issuer, metadata };
}

/** MSC2965's /auth_issuer, then the well-known's m.authentication. */
async function legacyDiscovery(
  http: HttpApi,
  options: HomeserverDiscoveryOptions,
): Promise<HomeserverAuthentication> {
  const signal = options.signal ? { signal: options.signal } : {};
  try {
    const legacy = await http.request<unknown>({
      method: "GET",
      prefix: AUTH_METADATA_PREFIX.unstable,
      path: "/auth_issuer",
      authenticated: false,
      ...signal,
    });
    return { issuer: issuerFrom(legacy) };
  } catch (err) {
    if (err instanceof OidcError) throw err;
    if (!unrecognised(err)) throw new OidcError("General", { cause: err });
  }
  let wellKnown = options.wellKnown;
  if (wellKnown === undefined) {
    try {
      wellKnown = await http.request<unknown>({
        method: "GET",
        prefix: Prefix.None,
        path: "/.well-known/matrix/client",
        authenticated: false,
        ...signal,
      });
    } catch (err) {
      // No well-known is the common case of a server without OIDC, not a failure.
      throw new OidcError("NotSupported", { cause: err });
    }
  }
  const entry = isRecord(wellKnown)
    ? WELL_KNOWN_AUTHENTICATION_KEYS.map((key) => wellKnown[key]).find((v) => v !== undefined)
    : undefined;
  if (entry === undefined) {
    throw new OidcError("NotSupported", { cause: new Error("the homeserver advertises no OpenID provider") });
  }
  const issuer = issuerFrom(entry);
  const account = isRecord(entry) && isHttpUrl(entry["account"]) ? entry["account"] : undefined;
  return { issuer, ...(account !== undefined ? { account } : {}) };
}

function issuerFrom(body: unknown): string {
  const issuer = isRecord(body) ? body["issuer"] : undefined;
  if (!isHttpUrl(issuer)) {
    throw new OidcError("Misconfigured", { cause: new Error("the homeserver named no valid issuer") });
  }
  return issuer;
}

/** The issuer the homeserver delegates to (discoverHomeserverAuth's issuer). */
export async function discoverIssuer(
  http: HttpApi,
  options: HomeserverDiscoveryOptions = {},
): Promise<string> {
  return (await discoverHomeserverAuth(http, options)).issuer;
}

/**
 * The metadata sign-in uses: the issuer's, with the response modes narrowed
 * to those the homeserver's auth_metadata offers too, and the account
 * management fields taken from the homeserver first (the Matrix spec puts
 * them in auth_metadata), then the issuer, then the legacy well-known.
 */
export function combineMetadata(
  provider: ValidatedIssuerMetadata,
  homeserver: HomeserverAuthentication,
): ValidatedIssuerMetadata {
  const out: ValidatedIssuerMetadata = { ...provider };
  const hs = homeserver.metadata;
  if (hs?.response_modes_supported !== undefined) {
    const offered = hs.response_modes_supported;
    const modes = (provider.response_modes_supported ?? USABLE_RESPONSE_MODES).filter((m) =>
      offered.includes(m),
    );
    if (!modes.some((m) => (USABLE_RESPONSE_MODES as readonly string[]).includes(m))) {
      throw new OidcError("OpSupport", {
        cause: new Error(
          "the homeserver and the provider share neither the query nor the fragment response mode",
        ),
      });
    }
    out.response_modes_supported = modes;
  }
  if (hs?.account_management_uri !== undefined) {
    out.account_management_uri = hs.account_management_uri;
    if (hs.account_management_actions_supported !== undefined)
      out.account_management_actions_supported = hs.account_management_actions_supported;
    else delete out.account_management_actions_supported;
  } else if (out.account_management_uri === undefined && homeserver.account !== undefined) {
    out.account_management_uri = homeserver.account;
  }
  return out;
}

/**
 * Fetches and validates `issuer`'s /.well-known/openid-configuration.
 * No answer, a time-out, an error status or a body that is not JSON give
 * 'Something went wrong with OIDC discovery'; the metadata checks give
 * 'OIDC is misconfigured' or 'Configured OIDC OP does not support required
 * functions' (validate.ts).
 */
export async function discoverProvider(
  issuer: string,
  options: OidcRequestOptions = {},
): Promise<ValidatedIssuerMetadata> {
  let doc: unknown;
  try {
    doc = await withTimeout(DISCOVERY_TIMEOUT_MS, options.signal, async (signal) => {
      const response = await discoveryRequest(new URL(issuer), {
        algorithm: "oidc",
        ...oauthHttpOptions(issuer, options, signal),
      });
      if (response.status !== 200) throw new OidcError("General", { status: response.status });
      const body = await readJson(response);
      if (body === undefined) throw new OidcError("General", { cause: "openid-configuration is not JSON" });
      return body;
    });
  } catch (err) {
    throw new OidcError("General", { cause: err });
  }
  return validateIssuerMetadata(doc, issuer);
}

/** The whole discovery: homeserver -> issuer -> validated provider metadata, combined. */
export async function discoverOidc(
  http: HttpApi,
  options: OidcRequestOptions & { wellKnown?: unknown } = {},
): Promise<OidcDiscovery> {
  const homeserver = await discoverHomeserverAuth(http, {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.wellKnown !== undefined ? { wellKnown: options.wellKnown } : {}),
  });
  const provider = await discoverProvider(homeserver.issuer, options);
  return { issuer: homeserver.issuer, metadata: combineMetadata(provider, homeserver) };
}
