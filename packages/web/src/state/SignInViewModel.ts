/**
 * The sign-in screen's view model: the homeserver (discovered from a server
 * name, user id or URL, defaulting to VITE_LATTICE_HOMESERVER), password
 * login, SSO (when the server advertises it, with the homeserver kept
 * across the redirect), OIDC (when the server names a provider: the
 * primary action, see state/oidc), guest access, and the switch to
 * registration. A
 * successful login hands its SessionData to the Session; the app reacts to
 * the Session's state, not to this view model.
 */
import { loginWithPassword, registerGuest, createHttpClient, ssoLoginUrl } from "../sdk";
import type { FetchFn, HttpClient, Session } from "../sdk";
import { t } from "../i18n/i18n";
import { describeError } from "./errors";
import { resolveHomeserver } from "./homeserver";
import type { HomeserverInfo } from "./homeserver";
import { ObservableValue } from "./observables";
import { beginOidcSignIn, discoverOffer, redirectUriOf } from "./oidc/oidc";
import type { OidcOffer, OidcStorage } from "./oidc/oidc";
import { RegisterViewModel } from "./RegisterViewModel";

/** Where the chosen homeserver waits while the browser is away at the SSO provider. */
export const SSO_HOMESERVER_KEY = "lattice.sso.homeserver";

/** The homeserver's OIDC provider: none, or offered, or advertised but unusable (SPEC §8 message). */
export type OidcStatus =
  { kind: "none" } | { kind: "offered"; offer: OidcOffer } | { kind: "error"; message: string };

export type ServerStatus =
  | { kind: "checking"; input: string }
  | { kind: "ready"; info: HomeserverInfo; oidc: OidcStatus }
  | { kind: "error"; input: string; message: string };

export interface SignInOptions {
  session: Session;
  defaultHomeserver: string;
  /** Navigates the page (SSO redirect). */
  navigate: (url: string) => void;
  /** The URL SSO returns to (the app's own page). */
  returnUrl: string;
  /** Survives the SSO redirect (sessionStorage in the browser). */
  pendingStorage: { setItem(key: string, value: string): void };
  fetch?: FetchFn;
  /** A notice to show above the form (e.g. why the previous session ended). */
  notice?: string;
  /** An error to show at first (e.g. an OIDC sign-in that came back failed). */
  error?: string;
  /** Where OIDC sign-in keeps its registrations and pending sign-ins; without it OIDC is not offered. */
  oidcStorage?: OidcStorage;
}

export const DEVICE_DISPLAY_NAME = "Lattice Web";

export class SignInViewModel {
  readonly server: ObservableValue<ServerStatus>;
  readonly mode = new ObservableValue<"login" | "register">("login");
  readonly busy = new ObservableValue<"login" | "guest" | "sso" | "oidc" | null>(null);
  readonly error: ObservableValue<string | null>;
  readonly notice: string | null;
  private registerVm: RegisterViewModel | undefined;
  private check = 0;

  constructor(private readonly options: SignInOptions) {
    this.server = new ObservableValue<ServerStatus>({ kind: "checking", input: options.defaultHomeserver });
    this.notice = options.notice ?? null;
    this.error = new ObservableValue<string | null>(options.error ?? null);
  }

  /** Checks the default homeserver (call once the screen shows); an initial error stays shown. */
  start(): Promise<void> {
    return this.checkServer(this.options.defaultHomeserver);
  }

  /** Discovers and checks a homeserver; a newer call wins over an older one still running. */
  setHomeserver(input: string): Promise<void> {
    this.error.set(null);
    return this.checkServer(input);
  }

  private async checkServer(input: string): Promise<void> {
    const ticket = ++this.check;
    this.server.set({ kind: "checking", input });
    try {
      const info = await resolveHomeserver(input, this.options.fetch);
      const oidc = await this.checkOidc(info.baseUrl, info.wellKnown);
      if (ticket === this.check) this.server.set({ kind: "ready", info, oidc });
    } catch (err) {
      if (ticket === this.check)
        this.server.set({ kind: "error", input, message: describeError(err, "server check") });
    }
  }

  /** The homeserver's OIDC provider, when OIDC sign-in is wired in. */
  private async checkOidc(baseUrl: string, wellKnown: unknown): Promise<OidcStatus> {
    if (this.options.oidcStorage === undefined) return { kind: "none" };
    try {
      const offer = await discoverOffer(baseUrl, this.options.fetch, wellKnown);
      return offer === null ? { kind: "none" } : { kind: "offered", offer };
    } catch (err) {
      return { kind: "error", message: describeError(err, "sign-in") };
    }
  }

  /**
   * Leaves for the OIDC provider (its account creation page with `create`):
   * registers the app there on first use, keeps the sign-in state in the tab.
   */
  async continueWithOidc(create = false): Promise<void> {
    const status = this.server.getSnapshot();
    const storage = this.options.oidcStorage;
    if (status.kind !== "ready" || status.oidc.kind !== "offered" || storage === undefined) return;
    if (this.busy.getSnapshot() !== null) return;
    this.busy.set("oidc");
    this.error.set(null);
    try {
      const url = await beginOidcSignIn({
        offer: status.oidc.offer,
        homeserverUrl: status.info.baseUrl,
        redirectUri: redirectUriOf(this.options.returnUrl),
        storage,
        create,
      });
      this.options.navigate(url);
    } catch (err) {
      this.error.set(describeError(err, "sign-in"));
      this.busy.set(null);
    }
  }

  private http(): HttpClient | null {
    const status = this.server.getSnapshot();
    if (status.kind !== "ready") return null;
    return createHttpClient({
      baseUrl: status.info.baseUrl,
      retry: false,
      ...(this.options.fetch ? { fetch: this.options.fetch } : {}),
    });
  }

  /** Password login; on success the Session signs in. */
  async login(username: string, password: string): Promise<void> {
    const http = this.http();
    if (http === null || this.busy.getSnapshot() !== null) return;
    if (username.trim() === "" || password === "") {
      this.error.set(t("auth", "missing_fields"));
      return;
    }
    this.busy.set("login");
    this.error.set(null);
    try {
      const data = await loginWithPassword(http, { userId: username.trim() }, password, {
        initialDeviceDisplayName: DEVICE_DISPLAY_NAME,
      });
      await this.options.session.signIn(data);
    } catch (err) {
      this.error.set(describeError(err, "sign-in"));
    } finally {
      this.busy.set(null);
    }
  }

  /** Guest access (kind=guest registration). */
  async continueAsGuest(): Promise<void> {
    const http = this.http();
    if (http === null || this.busy.getSnapshot() !== null) return;
    this.busy.set("guest");
    this.error.set(null);
    try {
      const data = await registerGuest(http, { initialDeviceDisplayName: DEVICE_DISPLAY_NAME });
      await this.options.session.signIn(data);
    } catch (err) {
      this.error.set(describeError(err, "guest access"));
    } finally {
      this.busy.set(null);
    }
  }

  /** Leaves for the server's SSO page (optionally straight to one provider). */
  startSso(idpId?: string): void {
    const status = this.server.getSnapshot();
    if (status.kind !== "ready" || status.info.sso === null) return;
    this.busy.set("sso");
    this.options.pendingStorage.setItem(SSO_HOMESERVER_KEY, status.info.baseUrl);
    this.options.navigate(
      ssoLoginUrl(status.info.baseUrl, this.options.returnUrl, idpId !== undefined ? { idpId } : {}),
    );
  }

  /** The registration view model for the current homeserver (made on first use). */
  showRegister(): RegisterViewModel | null {
    const http = this.http();
    if (http === null) return null;
    this.registerVm?.cancel();
    this.registerVm = new RegisterViewModel({ http, session: this.options.session });
    this.mode.set("register");
    return this.registerVm;
  }

  get register(): RegisterViewModel | undefined {
    return this.registerVm;
  }

  showLogin(): void {
    this.registerVm?.cancel();
    this.mode.set("login");
  }
}
