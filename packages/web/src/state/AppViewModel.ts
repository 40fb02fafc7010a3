/**
 * The app's root view model: restores the stored session (localStorage
 * through the SDK's WebSessionStorage), completes an SSO or OIDC return
 * (the provider's answer is dropped from the URL first), and maps
 * the Session's state to the screen: sign-in, soft logout (local data
 * kept, sign in again with the same device), or the signed-in client. It
 * lives as long as the page.
 */
import { completeSsoLogin, createHttpClient, loginTokenFromUrl, Session, WebSessionStorage } from "../sdk";
import type { FetchFn, KeyValueStorage, SessionState } from "../sdk";
import { ClientViewModel } from "./ClientViewModel";
import { describeError } from "./errors";
import { ObservableValue } from "./observables";
import { completeOidcSignIn, isOidcCallback, redirectUriOf, withoutCallback } from "./oidc/oidc";
import type { OidcStorage } from "./oidc/oidc";
import { OidcSoftLogoutViewModel } from "./oidc/OidcSoftLogoutViewModel";
import { DEVICE_DISPLAY_NAME, SignInViewModel, SSO_HOMESERVER_KEY } from "./SignInViewModel";
import { SoftLogoutViewModel } from "./SoftLogoutViewModel";
import { ThemeViewModel } from "./ThemeViewModel";
import type { ThemeTarget } from "./ThemeViewModel";

export type AppScreen =
  /** Before a screen is known; `step` "returning" while a provider's answer (OIDC or SSO) is being finished. */
  | { kind: "loading"; step?: "returning" }
  | { kind: "signin"; vm: SignInViewModel }
  | { kind: "soft_logout"; vm: SoftLogoutViewModel }
  | { kind: "client"; vm: ClientViewModel };

export interface AppOptions {
  storage: KeyValueStorage;
  /** Survives a redirect within the tab (sessionStorage). */
  tabStorage: KeyValueStorage;
  defaultHomeserver: string;
  /** The page's current URL (SSO returns carry ?loginToken=). */
  currentUrl: string;
  /** Replaces the URL without reloading (drops the loginToken). */
  replaceUrl: (url: string) => void;
  navigate: (url: string) => void;
  indexedDB: object;
  themeRoot: ThemeTarget;
  platformScope?: unknown;
  fetch?: FetchFn;
}

const SIGNED_OUT_NOTICES: Record<string, string> = {
  token_invalid: "Your session ended on the server. Sign in again.",
  refresh_failed: "Your session expired. Sign in again.",
  deactivated: "This account has been deactivated.",
};

export class AppViewModel {
  readonly screen = new ObservableValue<AppScreen>({ kind: "loading" });
  readonly theme: ThemeViewModel;
  private session: Session | undefined;
  private client: ClientViewModel | undefined;

  constructor(private readonly options: AppOptions) {
    this.theme = new ThemeViewModel(options.storage, options.themeRoot);
  }

  async start(): Promise<void> {
    const session = await Session.restore(new WebSessionStorage(this.options.storage));
    this.session = session;
    session.state.subscribe((state) => this.show(state));
    const url = this.options.currentUrl;
    // Back from the provider: say so while the code is traded for tokens (seconds), not a blank page.
    if (isOidcCallback(url) || loginTokenFromUrl(url) !== undefined)
      this.screen.set({ kind: "loading", step: "returning" });
    const returnError = (await this.completeSso(session)) ?? (await this.completeOidc(session));
    this.show(session.state.getSnapshot(), returnError);
  }

  private get oidcStorage(): OidcStorage {
    return { local: this.options.storage, tab: this.options.tabStorage };
  }

  /** A returning OIDC redirect (?code&state, or ?error&state): finish the sign-in, or say why it failed. */
  private async completeOidc(session: Session): Promise<string | undefined> {
    const url = this.options.currentUrl;
    if (!isOidcCallback(url)) return undefined;
    this.options.replaceUrl(withoutCallback(url));
    try {
      const data = await completeOidcSignIn(url, this.options.tabStorage, {
        deviceDisplayName: DEVICE_DISPLAY_NAME,
        ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      });
      await session.signIn(data);
      return undefined;
    } catch (err) {
      return describeError(err, "sign-in");
    }
  }

  /** A returning SSO redirect: trade the loginToken for a session. */
  private async completeSso(session: Session): Promise<string | undefined> {
    const url = this.options.currentUrl;
    if (loginTokenFromUrl(url) === undefined) return undefined;
    const clean = new URL(url);
    clean.searchParams.delete("loginToken");
    this.options.replaceUrl(clean.href);
    const baseUrl = this.options.tabStorage.getItem(SSO_HOMESERVER_KEY);
    this.options.tabStorage.removeItem(SSO_HOMESERVER_KEY);
    if (baseUrl === null) return "The single sign-on could not be completed: start again.";
    try {
      const http = createHttpClient({
        baseUrl,
        retry: false,
        ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      });
      await session.signIn(await completeSsoLogin(http, url, { initialDeviceDisplayName: "Lattice Web" }));
      return undefined;
    } catch (err) {
      return describeError(err, "single sign-on");
    }
  }

  private show(state: SessionState, notice?: string): void {
    const session = this.session;
    if (session === undefined) return;
    if (state.kind === "signed_in") {
      if (this.client?.userId === state.userId && this.screen.getSnapshot().kind === "client") return;
      void this.client?.dispose();
      const client = new ClientViewModel({
        session,
        indexedDB: this.options.indexedDB,
        platformScope: this.options.platformScope,
        ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      });
      this.client = client;
      this.screen.set({ kind: "client", vm: client });
      void client.start();
      return;
    }
    // Soft logout and sign-out both stop syncing; only a logout deletes local data (ClientViewModel.logout).
    void this.client?.dispose();
    this.client = undefined;
    if (state.kind === "soft_logged_out") {
      const vm =
        session.oidc !== undefined
          ? new OidcSoftLogoutViewModel(
              session,
              this.options.indexedDB,
              {
                storage: this.oidcStorage,
                redirectUri: redirectUriOf(this.options.currentUrl),
                navigate: this.options.navigate,
              },
              this.options.fetch,
            )
          : new SoftLogoutViewModel(session, this.options.indexedDB, this.options.fetch);
      this.screen.set({ kind: "soft_logout", vm });
      if (notice !== undefined) vm.error.set(notice);
      return;
    }
    const why = state.reason !== undefined ? SIGNED_OUT_NOTICES[state.reason] : undefined;
    const vm = new SignInViewModel({
      session,
      defaultHomeserver: this.options.defaultHomeserver,
      navigate: this.options.navigate,
      returnUrl: this.options.currentUrl.split("?")[0] ?? this.options.currentUrl,
      pendingStorage: this.options.tabStorage,
      oidcStorage: this.oidcStorage,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
      ...(why !== undefined ? { notice: why } : {}),
      ...(notice !== undefined ? { error: notice } : {}),
    });
    this.screen.set({ kind: "signin", vm });
    void vm.start();
  }
}
