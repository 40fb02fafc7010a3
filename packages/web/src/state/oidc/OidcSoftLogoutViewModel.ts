/**
 * Soft logout of a session signed in through OIDC: there is no password to
 * type here, so "Sign in again" sends the browser back to the provider with
 * the same client and the same device id (the device scope), and the
 * Session resumes on the same device when the provider answers (completed
 * by AppViewModel like any OIDC return). Signing out for good is the base
 * view model's.
 */
import { loadOidc } from "../../sdk";
import type { FetchFn, Session } from "../../sdk";
import { AppStateError, describeError } from "../errors";
import { SoftLogoutViewModel } from "../SoftLogoutViewModel";
import { beginOidcSignIn, offerOf } from "./oidc";
import type { OidcStorage } from "./oidc";

/** What resuming through the provider needs besides the session. */
export interface OidcResumeOptions {
  storage: OidcStorage;
  /** The app's own URL: the redirect URI the client was registered with. */
  redirectUri: string;
  navigate: (url: string) => void;
}

export class OidcSoftLogoutViewModel extends SoftLogoutViewModel {
  /** The provider's host, for "Continue with <host>". */
  readonly issuerHost: string;

  constructor(
    private readonly oidcSession: Session,
    indexedDB: object,
    private readonly resumeOptions: OidcResumeOptions,
    fetch?: FetchFn,
  ) {
    super(oidcSession, indexedDB, fetch);
    const issuer = oidcSession.oidc?.issuer;
    if (issuer === undefined) throw new AppStateError("Not an OIDC session");
    this.issuerHost = new URL(issuer).host;
  }

  /** Sends the browser to the provider to sign in again as the same device. */
  async continueWithProvider(): Promise<void> {
    const oidc = this.oidcSession.oidc;
    const homeserverUrl = this.oidcSession.homeserverUrl;
    const deviceId = this.oidcSession.deviceId;
    if (oidc === undefined || homeserverUrl === undefined || this.busy.getSnapshot()) return;
    this.busy.set(true);
    this.error.set(null);
    try {
      const { discoverProvider } = await loadOidc();
      const url = await beginOidcSignIn({
        offer: offerOf(await discoverProvider(oidc.issuer)),
        homeserverUrl,
        redirectUri: this.resumeOptions.redirectUri,
        storage: this.resumeOptions.storage,
        clientId: oidc.clientId,
        ...(deviceId !== undefined ? { deviceId } : {}),
      });
      this.resumeOptions.navigate(url);
    } catch (err) {
      this.error.set(describeError(err, "sign-in"));
      this.busy.set(false);
    }
  }
}
