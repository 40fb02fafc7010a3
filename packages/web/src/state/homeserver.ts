/**
 * Finding the homeserver behind what the user typed: a server name
 * (example.org), a user id (@alice:example.org) or a URL. Names and ids go
 * through the SDK's well-known discovery; a URL is used as typed unless its
 * origin's well-known points elsewhere. The answer is checked with
 * /versions, and the server's login flows tell the sign-in screen what to
 * offer (password, SSO providers, token).
 */
import {
  checkHomeserver,
  ConnectionError,
  createHttpClient,
  discoverHomeserver,
  getLoginFlows,
} from "../sdk";
import type { FetchFn } from "../sdk";
import { UserFacingError } from "./errors";

/** An SSO identity provider the server offers. */
export interface SsoProvider {
  id: string;
  name: string;
}

/** What the sign-in screen needs to know of a homeserver. */
export interface HomeserverInfo {
  baseUrl: string;
  /** What the user typed, shown back to them. */
  input: string;
  password: boolean;
  /** null when the server offers no SSO; [] for SSO without named providers. */
  sso: SsoProvider[] | null;
  /**
   * The /.well-known/matrix/client that named this homeserver, when one
   * did: OIDC discovery reads its legacy m.authentication (MSC2965) when
   * the homeserver serves no auth_metadata.
   */
  wellKnown?: unknown;
}

const UNUSABLE = "This is not a homeserver address. Enter a server name like example.org or a URL.";

function trimUrl(url: string): string {
  return url.replace(/\/+$/, "");
}

/** Resolves what the user typed to a checked homeserver and its login flows. */
export async function resolveHomeserver(input: string, fetch?: FetchFn): Promise<HomeserverInfo> {
  const typed = input.trim();
  if (typed === "") throw new UserFacingError("Enter a homeserver.");
  const isUrl = /^https?:\/\//i.test(typed);
  const http = createHttpClient({
    baseUrl: isUrl ? trimUrl(typed) : "https://invalid.invalid",
    retry: false,
    timeoutMs: 15_000,
    ...(fetch ? { fetch } : {}),
  });
  let baseUrl: string;
  let wellKnown: unknown;
  let discovery;
  try {
    discovery = await discoverHomeserver(http, typed, { timeoutMs: 15_000 });
  } catch {
    throw new UserFacingError(UNUSABLE);
  }
  if (discovery.homeserver.state === "SUCCESS" && discovery.homeserver.baseUrl !== null) {
    baseUrl = discovery.homeserver.baseUrl;
    wellKnown = discovery.wellKnown ?? undefined;
  } else if (isUrl || discovery.homeserver.state === "IGNORE" || discovery.homeserver.state === "PROMPT") {
    // No usable well-known: the server is what the user typed (a typed URL needs none at all).
    const name = typed.startsWith("@") ? typed.slice(typed.indexOf(":") + 1) : typed;
    baseUrl = isUrl ? trimUrl(typed) : `https://${name}`;
    await checkHomeserver(http, baseUrl, { timeoutMs: 15_000 });
  } else if (discovery.homeserver.cause instanceof ConnectionError) {
    throw discovery.homeserver.cause;
  } else {
    throw new UserFacingError(discovery.homeserver.error ?? UNUSABLE);
  }
  const flows = await getLoginFlows(createHttpClient({ baseUrl, retry: false, ...(fetch ? { fetch } : {}) }));
  const types = new Set(flows.flows.map((f) => f.type));
  let sso: SsoProvider[] | null = null;
  for (const flow of flows.flows) {
    if (flow.type !== "m.login.sso" && flow.type !== "m.login.cas") continue;
    sso ??= [];
    for (const idp of flow.identity_providers ?? []) {
      if (typeof idp.id === "string" && typeof idp.name === "string")
        sso.push({ id: idp.id, name: idp.name });
    }
  }
  return {
    baseUrl,
    input: typed,
    password: types.has("m.login.password"),
    sso,
    ...(wellKnown !== undefined ? { wellKnown } : {}),
  };
}
