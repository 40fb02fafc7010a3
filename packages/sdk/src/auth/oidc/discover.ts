/**
 * OIDC discovery: which provider the homeserver delegates sign-in to, and
 * what that provider can do. The issuer comes from the homeserver's
 * auth_metadata (stable, then MSC2965's unstable path, in api/), or on
 * older servers from MSC2965's unstable /auth_issuer; the provider's own
 * openid-configuration is then fetched (5 s time-out, SPEC.md §7) and
 * validated (validate.ts).
 */
import { discoveryRequest } from "oauth4webapi";
import { getAuthMetadata } from "../../api/auth-metadata";
import { AUTH_METADATA_PREFIX } from "../../api/unstable";
import { isUnrecognisedError } from "../../http/errors";
import type { HttpApi } from "../../http/types";
import { OidcError } from "./errors";
import { isRecord, oauthHttpOptions, readJson, withTimeout } from "./fetch";
import type { OidcRequestOptions } from "./fetch";
import { validateIssuerMetadata } from "./validate";
import type { ValidatedIssuerMetadata } from "./wire-types";

/** SPEC §7: the openid-configuration request times out after 5 s. */
export const DISCOVERY_TIMEOUT_MS = 5_000;

/** What discovery found: the issuer and its validated metadata. */
export interface OidcDiscovery {
  issuer: string;
  metadata: ValidatedIssuerMetadata;
}

function issuerFrom(body: unknown): string {
  const issuer = isRecord(body) ? body["issuer"] : undefined;
  if (typeof issuer !== "string" || !URL.canParse(issuer)) {
    throw new OidcError("Misconfigured", { cause: new Error("the homeserver named no valid issuer") });
  }
  return issuer;
}

/**
 * The issuer the homeserver delegates to. 'OIDC authentication not
 * supported' when neither auth_metadata nor auth_issuer is recognised;
 * 'OIDC is misconfigured' when an answer names no valid issuer; 'Something
 * went wrong with OIDC discovery' for any other failure.
 */
export async function discoverIssuer(http: HttpApi, options: { signal?: AbortSignal } = {}): Promise<string> {
  const signal = options.signal ? { signal: options.signal } : {};
  let metadata: unknown;
  try {
    metadata = await getAuthMetadata(http, signal);
  } catch (err) {
    if (!isUnrecognisedError(err)) throw new OidcError("General", { cause: err });
    let legacy: unknown;
    try {
      legacy = await http.request<unknown>({
        method: "GET",
        prefix: AUTH_METADATA_PREFIX.unstable,
        path: "/auth_issuer",
        authenticated: false,
        ...signal,
      });
    } catch (legacyErr) {
      throw new OidcError(isUnrecognisedError(legacyErr) ? "NotSupported" : "General", { cause: legacyErr });
    }
    return issuerFrom(legacy);
  }
  return issuerFrom(metadata);
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
      if (response.status !== 200) throw new Error(`openid-configuration answered ${response.status}`);
      const body = await readJson(response);
      if (body === undefined) throw new Error("openid-configuration is not JSON");
      return body;
    });
  } catch (err) {
    throw new OidcError("General", { cause: err });
  }
  return validateIssuerMetadata(doc, issuer);
}

/** The whole discovery: homeserver -> issuer -> validated provider metadata. */
export async function discoverOidc(http: HttpApi, options: OidcRequestOptions = {}): Promise<OidcDiscovery> {
  const issuer = await discoverIssuer(http, options.signal ? { signal: options.signal } : {});
  const metadata = await discoverProvider(issuer, options);
  return { issuer, metadata };
}
