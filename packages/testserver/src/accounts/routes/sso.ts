/**
 * A local stand-in for single sign-on: /login/sso/redirect[/{idpId}] sends
 * the browser to a small HTML page on this server where the user types a
 * user name; submitting it (creating the account on first use, as SSO
 * provisioning does) redirects to the client's redirectUrl with a
 * loginToken for m.login.token.
 */
import type { ServerContext } from "../../core/context";
import { errors } from "../../http/errors";
import { CLIENT_V3 } from "../../http/router";
import type { Router } from "../../http/router";
import type { HandlerRequest, HandlerResponse } from "../../http/types";
import { checkUsername } from "./register";

/** The one identity provider the test server offers. */
export const SSO_IDP = { id: "lattice-local", name: "Lattice test SSO" };
export const SSO_PAGE_PATH = "/_lattice/sso";
export const SSO_COMPLETE_PATH = "/_lattice/sso/complete";

function redirectUrlOf(req: HandlerRequest): string {
  const redirectUrl = req.query.get("redirectUrl");
  if (redirectUrl === null) throw errors.missingParam("redirectUrl");
  let parsed: URL;
  try {
    parsed = new URL(redirectUrl);
  } catch {
    throw errors.invalidParam("redirectUrl is not a URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw errors.invalidParam("redirectUrl must be http or https");
  }
  return redirectUrl;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function registerSsoRoutes(router: Router, ctx: ServerContext): void {
  const redirect = (req: HandlerRequest): HandlerResponse => {
    if (req.params["idpId"] !== undefined && req.params["idpId"] !== SSO_IDP.id) {
      throw errors.notFound("Unknown identity provider");
    }
    const redirectUrl = redirectUrlOf(req);
    const location = `${req.baseUrl}${SSO_PAGE_PATH}?${new URLSearchParams({ redirectUrl }).toString()}`;
    return {
      status: 302,
      raw: { contentType: "text/plain", data: "Redirecting", headers: { Location: location } },
    };
  };
  router.add("GET", CLIENT_V3, "/login/sso/redirect", redirect, { auth: "none" });
  router.add("GET", CLIENT_V3, "/login/sso/redirect/:idpId", redirect, { auth: "none" });

  router.add(
    "GET",
    "",
    SSO_PAGE_PATH,
    (req) => {
      const redirectUrl = redirectUrlOf(req);
      const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(SSO_IDP.name)}</title></head>
<body>
<h1>${escapeHtml(SSO_IDP.name)}</h1>
<p>Development sign-in: this test server trusts whatever user name you type.</p>
<form method="get" action="${SSO_COMPLETE_PATH}">
<input type="hidden" name="redirectUrl" value="${escapeHtml(redirectUrl)}">
<label>User name <input name="user" value="alice" autocomplete="username"></label>
<button type="submit">Continue</button>
</form>
</body></html>`;
      return { raw: { contentType: "text/html; charset=utf-8", data: html } };
    },
    { auth: "none" },
  );

  router.add(
    "GET",
    "",
    SSO_COMPLETE_PATH,
    (req) => {
      const redirectUrl = redirectUrlOf(req);
      const name = (req.query.get("user") ?? "").trim();
      if (name.length === 0) throw errors.missingParam("user");
      const localpart = name.startsWith("@") ? (name.slice(1).split(":")[0] ?? "") : name.toLowerCase();
      let userId = ctx.accounts.userIdFor(localpart);
      if (!ctx.accounts.getUser(userId)) {
        checkUsername(ctx, localpart);
        userId = ctx.accounts.createUser(localpart).userId;
      }
      if (!ctx.accounts.userExists(userId)) throw errors.forbidden("This account has been deactivated");
      const { token } = ctx.accounts.tokens.issueLoginToken(userId);
      const target = new URL(redirectUrl);
      target.searchParams.set("loginToken", token);
      return {
        status: 302,
        raw: { contentType: "text/plain", data: "Redirecting", headers: { Location: target.toString() } },
      };
    },
    { auth: "none" },
  );
}
