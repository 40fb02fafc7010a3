/**
 * Users, devices, access and refresh tokens, interactive auth, 3PIDs, profiles, E2EE keys, to-device queues, media.
 */
import type { ServerContext } from "../core/context";
import type { Requester } from "../http/types";

export class AccountStore {
  constructor(protected readonly ctx: ServerContext) {}

  /**
   * Resolves an access token: the requester, "expired" for a token past its
   * lifetime (answered with soft_logout true), or undefined when unknown.
   */
  authenticate(_token: string): Requester | "expired" | undefined {
    return undefined;
  }
}
