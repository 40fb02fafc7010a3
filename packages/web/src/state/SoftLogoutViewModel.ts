/**
 * Soft logout: the server dropped the access token but the device lives on.
 * Everything stored locally stays; signing in again with the password (and
 * the same device id) resumes the session where it was. Signing out for
 * good deletes the local data.
 */
import { createHttpClient, loginWithPassword } from "../sdk";
import type { FetchFn, Session } from "../sdk";
import { databaseNameOf } from "./ClientViewModel";
import { t } from "../i18n/i18n";
import { describeError } from "./errors";
import { ObservableValue } from "./observables";

export class SoftLogoutViewModel {
  readonly busy = new ObservableValue(false);
  readonly error = new ObservableValue<string | null>(null);

  constructor(
    private readonly session: Session,
    private readonly indexedDB: object,
    private readonly fetch?: FetchFn,
  ) {}

  get userId(): string {
    return this.session.userId ?? "";
  }

  get homeserverUrl(): string {
    return this.session.homeserverUrl ?? "";
  }

  /** Signs in again on the same device; the Session resumes and the client restarts from its cache. */
  async resume(password: string): Promise<void> {
    if (this.busy.getSnapshot()) return;
    if (password === "") {
      this.error.set(t("auth", "missing_fields"));
      return;
    }
    this.busy.set(true);
    this.error.set(null);
    try {
      const http = createHttpClient({
        baseUrl: this.homeserverUrl,
        retry: false,
        ...(this.fetch ? { fetch: this.fetch } : {}),
      });
      const deviceId = this.session.deviceId;
      const data = await loginWithPassword(http, { userId: this.userId }, password, {
        ...(deviceId !== undefined ? { deviceId } : {}),
      });
      await this.session.signIn(data);
    } catch (err) {
      this.error.set(describeError(err, "sign-in"));
    } finally {
      this.busy.set(false);
    }
  }

  /** Gives up the session: local data is deleted. */
  async signOut(): Promise<void> {
    const userId = this.userId;
    await this.session.clear("logout");
    const idb = this.indexedDB as Partial<IDBFactory>;
    idb.deleteDatabase?.(databaseNameOf(userId));
  }
}
