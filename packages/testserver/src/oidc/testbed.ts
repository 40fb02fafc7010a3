/**
 * The test homeserver and the test provider started together and wired
 * both ways: the homeserver advertises the provider through auth_metadata
 * (config oidcIssuer), the provider signs in the homeserver's users, and
 * the homeserver accepts the provider's access tokens.
 */
import { startTestServer } from "../server";
import type { TestServerHandle } from "../server";
import type { TestServerOptions } from "../core/config";
import { startOidcProvider } from "./provider";
import type { OidcProviderHandle, OidcProviderOptions } from "./provider";

/** A running homeserver and provider pair. */
export interface OidcTestbed {
  homeserver: TestServerHandle;
  provider: OidcProviderHandle;
  /** Registers a user with a password on the homeserver (the provider signs them in). */
  createUser(localpart: string, password: string): string;
  stop(): Promise<void>;
}

/** Starts the provider, then the homeserver pointing at it, and wires them. */
export async function startOidcTestbed(
  options: { homeserver?: TestServerOptions; provider?: OidcProviderOptions } = {},
): Promise<OidcTestbed> {
  const provider = await startOidcProvider(options.provider);
  let homeserver: TestServerHandle;
  try {
    homeserver = await startTestServer({ ...options.homeserver, oidcIssuer: provider.issuer });
  } catch (err) {
    await provider.stop();
    throw err;
  }
  const accounts = homeserver.ctx.accounts;
  provider.setAccounts(accounts);
  accounts.externalTokenVerifier = (token) => provider.verifyAccessToken(token);
  return {
    homeserver,
    provider,
    createUser(localpart, password) {
      return accounts.createUser(localpart, { password }).userId;
    },
    async stop() {
      await Promise.all([homeserver.stop(), provider.stop()]);
    },
  };
}
