/**
 * The provider's own login and consent pages: plain HTML forms that
 * oidc-provider's interaction API sends the browser to. The login checks
 * the test homeserver's users and passwords; the consent grants what was
 * asked for and records which Matrix device the grant is for (the device
 * scope is not an OIDC scope oidc-provider keeps, so the homeserver learns
 * the device from here).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";

/** What the pages need from the homeserver's account store. */
export interface OidcAccountSource {
  /** A full user id for a localpart or user id. */
  userIdFor(localpartOrId: string): string;
  checkPassword(userId: string, password: string): boolean;
  userExists(userId: string): boolean;
  profile(userId: string): { displayname?: string } | undefined;
}

/** Device scope prefixes, unstable (MSC2967) and stable (Matrix 1.15). */
const DEVICE_SCOPE_PREFIXES = ["urn:matrix:org.matrix.msc2967.client:device:", "urn:matrix:client:device:"];

/** The device id a scope string asks for, if any. */
export function deviceIdFromScope(scope: unknown): string | undefined {
  if (typeof scope !== "string") return undefined;
  for (const token of scope.split(" ")) {
    for (const prefix of DEVICE_SCOPE_PREFIXES) {
      if (token.startsWith(prefix) && token.length > prefix.length) return token.slice(prefix.length);
    }
  }
  return undefined;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(res: ServerResponse, status: number, title: string, body: string): void {
  res.writeHead(status, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
  res.end(`<!doctype html><html><head><title>${escapeHtml(title)}</title></head><body>${body}</body></html>`);
}

/** A posted form over the size limit. */
class FormTooLargeError extends Error {
  constructor() {
    super("form too large");
    this.name = "FormTooLargeError";
  }
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024) throw new FormTooLargeError();
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function loginForm(uid: string, error?: string): string {
  return (
    `<h1>Sign in</h1>${error ? `<p role="alert">${escapeHtml(error)}</p>` : ""}` +
    `<form method="post" action="/interaction/${encodeURIComponent(uid)}/login">` +
    `<label>Username <input name="username" autocomplete="username"></label>` +
    `<label>Password <input name="password" type="password" autocomplete="current-password"></label>` +
    `<button type="submit">Sign in</button></form>`
  );
}

function consentForm(uid: string, clientId: string, scope: string): string {
  return (
    `<h1>Allow access</h1><p>${escapeHtml(clientId)} asks for: ${escapeHtml(scope)}</p>` +
    `<form method="post" action="/interaction/${encodeURIComponent(uid)}/confirm">` +
    `<button type="submit">Allow</button></form>` +
    `<form method="post" action="/interaction/${encodeURIComponent(uid)}/abort">` +
    `<button type="submit">Deny</button></form>`
  );
}

/**
 * Handles /interaction/:uid[/login|/confirm|/abort]. `onGrant` hears each
 * grant made, with the authorization request's parameters.
 */
export async function handleInteraction(
  provider: Provider,
  accounts: () => OidcAccountSource | undefined,
  onGrant: (grantId: string, params: Record<string, unknown>) => void,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const [, , uid = "", action = ""] = url.pathname.split("/");
  const method = req.method ?? "GET";
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) {
    page(res, 400, "Error", "<p>Unknown interaction</p>");
    return;
  }
  const scope = typeof details.params["scope"] === "string" ? details.params["scope"] : "";
  const clientId = typeof details.params["client_id"] === "string" ? details.params["client_id"] : "";

  if (method === "GET" && action === "") {
    if (details.prompt.name === "login") page(res, 200, "Sign in", loginForm(uid));
    else page(res, 200, "Allow access", consentForm(uid, clientId, scope));
    return;
  }
  if (method !== "POST") {
    page(res, 405, "Error", "<p>Method not allowed</p>");
    return;
  }
  if (action === "login") {
    const form = await readForm(req);
    const source = accounts();
    const username = form.get("username") ?? "";
    const userId = source?.userIdFor(username);
    if (!source || userId === undefined || !source.checkPassword(userId, form.get("password") ?? "")) {
      page(res, 401, "Sign in", loginForm(uid, "Invalid username or password"));
      return;
    }
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: userId } },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  if (action === "confirm") {
    const accountId = details.session?.accountId;
    if (accountId === undefined) {
      page(res, 400, "Error", "<p>Not signed in</p>");
      return;
    }
    const grant = details.grantId
      ? ((await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId, clientId }))
      : new provider.Grant({ accountId, clientId });
    const missing = details.prompt.details;
    const missingScope = missing["missingOIDCScope"];
    if (Array.isArray(missingScope))
      grant.addOIDCScope(missingScope.filter((s) => typeof s === "string").join(" "));
    const missingClaims = missing["missingOIDCClaims"];
    if (Array.isArray(missingClaims)) grant.addOIDCClaims(missingClaims.filter((c) => typeof c === "string"));
    const grantId = await grant.save();
    onGrant(grantId, details.params);
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return;
  }
  if (action === "abort") {
    await provider.interactionFinished(
      req,
      res,
      { error: "access_denied", error_description: "The user denied access" },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  page(res, 404, "Error", "<p>Not found</p>");
}
