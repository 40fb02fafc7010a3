/**
 * Wire types of client server discovery (api/client-server/wellknown.yaml,
 * definitions/wellknown/*) and of the identity server's root
 * (api/identity/v2_ping.yaml).
 */

/** A server reference in the well-known document. */
export interface WellKnownServer {
  base_url: string;
  [key: string]: unknown;
}

/** GET /.well-known/matrix/client. Other keys (e.g. org.matrix.msc4143.rtc_foci) are kept. */
export interface ClientWellKnown {
  "m.homeserver": WellKnownServer;
  "m.identity_server"?: WellKnownServer;
  [key: string]: unknown;
}
