/**
 * "Manage account" at the provider of a session signed in through OIDC:
 * the provider's `account_management_uri` (OAuth 2.0 server metadata,
 * Matrix 1.15), with `action=` (and `device_id=`) when the provider lists
 * that action in `account_management_actions_supported` (the stable names,
 * else MSC4191's earlier ones). Nothing is shown for a password session, a
 * provider without the URI, or one that cannot be reached.
 */
import { loadOidc, ObservableValue, WebSessionStorage } from "../../sdk";
import type { KeyValueStorage, OidcSessionInfo, ValidatedIssuerMetadata } from "../../sdk";

/** The account management actions the app asks for, each with its stable and earlier (MSC4191) names. */
export const ACCOUNT_ACTIONS = {
  profile: ["org.matrix.profile"],
  devicesList: ["org.matrix.devices_list", "org.matrix.sessions_list"],
  deviceView: ["org.matrix.device_view", "org.matrix.session_view"],
  deviceDelete: ["org.matrix.device_delete", "org.matrix.session_end"],
  deactivate: ["org.matrix.account_deactivate"],
  crossSigningReset: ["org.matrix.cross_signing_reset"],
} as const;

/** An account management action the app can ask for. */
export type AccountAction = keyof typeof ACCOUNT_ACTIONS;

/**
 * The account management URL of a provider, or null when it has none (or
 * not an http(s) URL). `action` becomes `action=<name>` when the provider
 * advertises it (the first of its names it lists); otherwise the plain URL.
 * `deviceId` goes along with an action.
 */
export function accountManagementUrl(
  metadata: Pick<ValidatedIssuerMetadata, "account_management_uri"> & {
    account_management_actions_supported?: unknown;
  },
  request: { action?: AccountAction; deviceId?: string } = {},
): string | null {
  const uri = metadata.account_management_uri;
  if (typeof uri !== "string" || !URL.canParse(uri)) return null;
  const url = new URL(uri);
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const listed = metadata.account_management_actions_supported;
  const supported = Array.isArray(listed) ? listed.filter((a) => typeof a === "string") : [];
  const action =
    request.action === undefined
      ? undefined
      : ACCOUNT_ACTIONS[request.action].find((name) => supported.includes(name));
  if (action !== undefined) {
    url.searchParams.set("action", action);
    if (request.deviceId !== undefined) url.searchParams.set("device_id", request.deviceId);
  }
  return url.href;
}

/** Settings › Account's "Manage account" link (opens the provider's account page in a new tab). */
export class AccountManagement {
  /** The link to show, or null (none, or not known yet). */
  readonly url = new ObservableValue<string | null>(null);
  private loading: Promise<void> | undefined;

  constructor(
    private readonly oidc: OidcSessionInfo | undefined,
    private readonly discover: (issuer: string) => Promise<ValidatedIssuerMetadata> = async (issuer) =>
      await (await loadOidc()).discoverProvider(issuer),
  ) {}

  /** For the session stored in `storage` (the app's localStorage): an OIDC session gets the link. */
  static forStoredSession(storage: KeyValueStorage): AccountManagement {
    return new AccountManagement(new WebSessionStorage(storage).load()?.oidc);
  }

  /** Whether the session was signed in through a provider (the link may then appear). */
  get isOidc(): boolean {
    return this.oidc !== undefined;
  }

  /** Reads the provider's metadata once; the link is its account page opened on the profile. */
  load(): Promise<void> {
    const oidc = this.oidc;
    if (oidc === undefined) return Promise.resolve();
    this.loading ??= this.discover(oidc.issuer).then(
      (metadata) => this.url.set(accountManagementUrl(metadata, { action: "profile" })),
      // An unreachable provider is no reason for an error here: the link stays hidden.
      () => this.url.set(null),
    );
    return this.loading;
  }
}
