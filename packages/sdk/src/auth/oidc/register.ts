/**
 * Dynamic client registration (RFC 7591) with SPEC.md §3's body: a public
 * client (token_endpoint_auth_method none) for the authorization code flow
 * with refresh tokens. The logo, policy and terms URLs are sent only when
 * they are on the client's own host or a subdomain of it, as MSC2966 asks
 * (a provider may show them on its consent page; a foreign host would let
 * a client borrow someone else's identity).
 */
import { dynamicClientRegistrationRequest } from "oauth4webapi";
import type { AuthorizationServer } from "oauth4webapi";
import { OidcError } from "./errors";
import { isRecord, oauthHttpOptions, readJson } from "./fetch";
import type { OidcRequestOptions } from "./fetch";
import type { ClientRegistrationBody, ValidatedIssuerMetadata } from "./wire-types";

/** What the app says about itself when it registers. */
export interface ClientInformation {
  clientName: string;
  /** The client's home page; its host decides which other URLs are sent. */
  clientUri: string;
  /** Where the provider sends the browser back with the code. */
  redirectUris: string[];
  /** "web" for a browser app (default), "native" for a desktop or mobile one. */
  applicationType?: "web" | "native";
  contacts?: string[];
  logoUri?: string;
  policyUri?: string;
  tosUri?: string;
}

/** True when `url` is on `clientUri`'s host or a subdomain of it. */
export function isOnClientHost(url: string, clientUri: string): boolean {
  try {
    const host = new URL(url).hostname;
    const own = new URL(clientUri).hostname;
    return host === own || host.endsWith(`.${own}`);
  } catch {
    return false;
  }
}

/** SPEC §3's registration body for `info`. */
export function buildRegistrationBody(info: ClientInformation): ClientRegistrationBody {
  const body: ClientRegistrationBody = {
    client_name: info.clientName,
    client_uri: info.clientUri,
    response_types: ["code"],
    grant_types: ["authorization_code", "refresh_token"],
    redirect_uris: [...info.redirectUris],
    id_token_signed_response_alg: "RS256",
    token_endpoint_auth_method: "none",
    application_type: info.applicationType ?? "web",
  };
  if (info.contacts) body.contacts = [...info.contacts];
  const own = (url: string | undefined): url is string =>
    url !== undefined && isOnClientHost(url, info.clientUri);
  if (own(info.logoUri)) body.logo_uri = info.logoUri;
  if (own(info.policyUri)) body.policy_uri = info.policyUri;
  if (own(info.tosUri)) body.tos_uri = info.tosUri;
  return body;
}

/**
 * Registers the client with the provider and returns its client_id.
 * No registration_endpoint: DynamicRegistrationNotSupported. No answer or an
 * error status: DynamicRegistrationFailed. A 2xx answer without a client_id
 * string: DynamicRegistrationInvalid.
 */
export async function registerClient(
  metadata: ValidatedIssuerMetadata,
  info: ClientInformation,
  options: OidcRequestOptions = {},
): Promise<string> {
  const endpoint = metadata.registration_endpoint;
  if (endpoint === undefined) throw new OidcError("DynamicRegistrationNotSupported");
  let response: Response;
  try {
    response = await dynamicClientRegistrationRequest(
      metadata as AuthorizationServer,
      { ...buildRegistrationBody(info) },
      oauthHttpOptions(endpoint, options, options.signal),
    );
  } catch (err) {
    throw new OidcError("DynamicRegistrationFailed", { cause: err });
  }
  const body = await readJson(response);
  if (response.status < 200 || response.status > 299) {
    throw new OidcError("DynamicRegistrationFailed", {
      cause: new Error(`registration answered ${response.status}: ${JSON.stringify(body)}`),
    });
  }
  const clientId = isRecord(body) ? body["client_id"] : undefined;
  if (typeof clientId !== "string" || clientId === "") {
    throw new OidcError("DynamicRegistrationInvalid", {
      cause: new Error("no client_id string in the answer"),
    });
  }
  return clientId;
}
