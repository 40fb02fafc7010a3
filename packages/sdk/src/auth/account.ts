/**
 * The signed-in user's account: password change (logout_devices),
 * deactivation (erase), third-party identifiers (list, validate by email or
 * phone, add through interactive auth, bind, unbind, delete), pushers,
 * whoami, and the capability flags (change password, set display name and
 * avatar, 3PID changes, login tokens) read from GET /capabilities with the
 * spec's defaults when absent. Calls that need interactive auth go through
 * the engine with the app's callbacks and the user's identifier.
 */
import * as account from "../api/account";
import { getCapabilities } from "../api/capabilities";
import { uploadCrossSigningKeys } from "../api/keys";
import * as push from "../api/push";
import type {
  EmailTokenRequest,
  IdServerUnbindResponse,
  MsisdnTokenRequest,
  ThirdPartyIdentifier,
  ThreepidMedium,
  WhoamiResponse,
} from "../api/types/account";
import type { AuthDict } from "../api/types/auth";
import type { UploadCrossSigningKeysRequest } from "../api/types/keys";
import type { Pusher, SetPusherRequest } from "../api/types/push";
import type { HttpApi } from "../http/types";
import { runInteractiveAuth } from "./InteractiveAuth";
import type { UiaCallbacks } from "./InteractiveAuth";
import type { RandomFn } from "./secret";
import type { Session } from "./session";
import { ThreepidValidation } from "./threepid";
import type { ValidatedThreepid } from "./threepid";

/** What the server lets the user change, with the spec's defaults for absent capabilities. */
export interface AccountCapabilities {
  changePassword: boolean;
  setDisplayname: boolean;
  setAvatarUrl: boolean;
  threepidChanges: boolean;
  getLoginToken: boolean;
}

function flag(caps: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const value = caps[key];
  if (typeof value !== "object" || value === null) return fallback;
  const enabled = (value as { enabled?: unknown }).enabled;
  return typeof enabled === "boolean" ? enabled : fallback;
}

/** Reads capability flags from an untrusted /capabilities answer. */
export function accountCapabilitiesOf(response: unknown): AccountCapabilities {
  const raw = (response as { capabilities?: unknown } | null)?.capabilities;
  const caps = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
  return {
    changePassword: flag(caps, "m.change_password", true),
    setDisplayname: flag(caps, "m.set_displayname", true),
    setAvatarUrl: flag(caps, "m.set_avatar_url", true),
    threepidChanges: flag(caps, "m.3pid_changes", true),
    getLoginToken: flag(caps, "m.get_login_token", false),
  };
}

export interface AccountServiceOptions {
  /** The authenticated HttpApi (a TokenRefresher in an app). */
  http: HttpApi;
  /** The signed-in user, who proves m.login.password stages. */
  userId: string;
  /** Cleared with reason "deactivated" after a deactivation. */
  session?: Session;
  /** The app's interactive-auth callbacks (ask for the password, ...). */
  callbacks?: UiaCallbacks;
  random?: RandomFn;
}

export class AccountService {
  constructor(private readonly options: AccountServiceOptions) {}

  private get http(): HttpApi {
    return this.options.http;
  }

  /** Runs an interactive-auth protected request as this user. */
  withAuth<T>(request: (auth: AuthDict | undefined) => Promise<T>, callbacks?: UiaCallbacks): Promise<T> {
    return runInteractiveAuth({
      request,
      callbacks: callbacks ?? this.options.callbacks,
      identifier: { type: "m.id.user", user: this.options.userId },
      random: this.options.random,
    });
  }

  /** GET /account/whoami */
  whoami(): Promise<WhoamiResponse> {
    return account.whoami(this.http);
  }

  /** GET /capabilities, as flags with the spec's defaults. */
  async capabilities(): Promise<AccountCapabilities> {
    return accountCapabilitiesOf(await getCapabilities(this.http));
  }

  /** POST /account/password; `logoutDevices` signs out every other device. */
  changePassword(
    newPassword: string,
    options: { logoutDevices?: boolean; callbacks?: UiaCallbacks } = {},
  ): Promise<void> {
    return this.withAuth(
      (auth) =>
        account.changePassword(this.http, {
          new_password: newPassword,
          ...(options.logoutDevices !== undefined ? { logout_devices: options.logoutDevices } : {}),
          ...(auth !== undefined ? { auth } : {}),
        }),
      options.callbacks,
    );
  }

  /** POST /account/deactivate (erase: forget the user's messages); ends the session. */
  async deactivate(
    options: { erase?: boolean; callbacks?: UiaCallbacks } = {},
  ): Promise<IdServerUnbindResponse> {
    const res = await this.withAuth(
      (auth) =>
        account.deactivateAccount(this.http, {
          erase: options.erase ?? false,
          ...(auth !== undefined ? { auth } : {}),
        }),
      options.callbacks,
    );
    await this.options.session?.clear("deactivated");
    return res;
  }

  /** GET /account/3pid */
  async threepids(): Promise<ThirdPartyIdentifier[]> {
    const res = await account.getThreepids(this.http);
    return Array.isArray(res.threepids) ? res.threepids : [];
  }

  /** Starts validating an email address to add (call `send()` on the result, and again to resend). */
  emailValidation(email: string, nextLink?: string): ThreepidValidation<EmailTokenRequest> {
    return new ThreepidValidation<EmailTokenRequest>(
      (body) => account.requestAdd3pidEmailToken(this.http, body),
      { email },
      { nextLink, random: this.options.random },
    );
  }

  /** Starts validating a phone number to add. */
  msisdnValidation(
    country: string,
    phoneNumber: string,
    nextLink?: string,
  ): ThreepidValidation<MsisdnTokenRequest> {
    return new ThreepidValidation<MsisdnTokenRequest>(
      (body) => account.requestAdd3pidMsisdnToken(this.http, body),
      { country, phone_number: phoneNumber },
      { nextLink, random: this.options.random },
    );
  }

  /** POST /account/3pid/add with a validated session, through interactive auth. */
  addThreepid(validation: ValidatedThreepid, callbacks?: UiaCallbacks): Promise<void> {
    const creds = validation.credentials();
    return this.withAuth(
      (auth) => account.addThreepid(this.http, { ...creds, ...(auth !== undefined ? { auth } : {}) }),
      callbacks,
    );
  }

  /** POST /account/3pid/bind on an identity server. */
  bindThreepid(validation: ValidatedThreepid, idServer: string, idAccessToken: string): Promise<void> {
    return account.bindThreepid(this.http, {
      ...validation.credentials(),
      id_server: idServer,
      id_access_token: idAccessToken,
    });
  }

  /** POST /account/3pid/unbind: off the identity server, kept on the account. */
  unbindThreepid(
    medium: ThreepidMedium,
    address: string,
    idServer?: string,
  ): Promise<IdServerUnbindResponse> {
    return account.unbindThreepid(this.http, {
      medium,
      address,
      ...(idServer !== undefined ? { id_server: idServer } : {}),
    });
  }

  /** POST /account/3pid/delete: off the account. */
  deleteThreepid(
    medium: ThreepidMedium,
    address: string,
    idServer?: string,
  ): Promise<IdServerUnbindResponse> {
    return account.deleteThreepid(this.http, {
      medium,
      address,
      ...(idServer !== undefined ? { id_server: idServer } : {}),
    });
  }

  /**
   * POST /keys/device_signing/upload through interactive auth (the first
   * upload may need none; replacing keys does).
   */
  uploadCrossSigningKeys(
    keys: Omit<UploadCrossSigningKeysRequest, "auth">,
    callbacks?: UiaCallbacks,
  ): Promise<void> {
    return this.withAuth(async (auth) => {
      await uploadCrossSigningKeys(this.http, { ...keys, ...(auth !== undefined ? { auth } : {}) });
    }, callbacks);
  }

  /** GET /pushers */
  async pushers(): Promise<Pusher[]> {
    const res = await push.getPushers(this.http);
    return Array.isArray(res.pushers) ? res.pushers : [];
  }

  /** POST /pushers/set: creates or updates a pusher. */
  setPusher(pusher: SetPusherRequest): Promise<void> {
    return push.setPusher(this.http, pusher);
  }

  /** POST /pushers/set with kind null: removes a pusher. */
  removePusher(appId: string, pushkey: string): Promise<void> {
    return push.setPusher(this.http, { app_id: appId, pushkey, kind: null });
  }
}
