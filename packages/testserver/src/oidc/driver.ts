/**
 * A browser-less user for the test provider: follows the authorization URL
 * with manual redirects and a cookie jar, fills in the login form, allows
 * (or denies) on the consent page, and stops at the client's redirect URI,
 * returning that URL (with the code, or the error) as a browser would land
 * on it.
 */

interface Cookie {
  value: string;
  path: string;
}

/** A minimal cookie jar for one host: name -> value, scoped by path. */
export class CookieJar {
  private readonly cookies = new Map<string, Cookie>();

  /** Stores the Set-Cookie headers of a response for `url`. */
  store(url: URL, response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";");
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      let path = url.pathname;
      let expired = value === "";
      for (const attribute of attributes) {
        const [rawKey = "", rawVal = ""] = attribute.split("=");
        const k = rawKey.trim().toLowerCase();
        if (k === "path") path = rawVal.trim() || "/";
        if (k === "expires" && Date.parse(rawVal.trim()) <= Date.now()) expired = true;
        if (k === "max-age" && Number(rawVal.trim()) <= 0) expired = true;
      }
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, { value, path });
    }
  }

  /** The Cookie header for a request to `url`. */
  header(url: URL): string {
    return [...this.cookies]
      .filter(([, c]) => url.pathname.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join("; ");
  }
}

/** The user and what they do on the provider's pages. */
export interface ProviderLoginOptions {
  username: string;
  password: string;
  /** The client's redirect URI: reaching it ends the flow. */
  redirectUri: string;
  /** Allow on the consent page (default) or deny. */
  consent?: "allow" | "deny";
  /** The jar to use; a fresh one by default (pass one to keep the provider session). */
  jar?: CookieJar;
}

function formAction(html: string, pattern: RegExp): string | undefined {
  for (const match of html.matchAll(/<form[^>]*action="([^"]+)"/g)) {
    const action = match[1];
    if (action !== undefined && pattern.test(action)) return action.replace(/&amp;/g, "&");
  }
  return undefined;
}

/**
 * Drives the provider from `authorizationUrl` to the redirect URI and
 * returns the URL the browser would land on. Throws when a page is not one
 * it knows (e.g. a wrong password shows the login form again).
 */
export async function driveProviderLogin(
  authorizationUrl: string,
  options: ProviderLoginOptions,
): Promise<string> {
  const jar = options.jar ?? new CookieJar();
  let url = new URL(authorizationUrl);
  let method: "GET" | "POST" = "GET";
  let body: URLSearchParams | undefined;
  let loggedIn = false;
  for (let step = 0; step < 20; step++) {
    if (url.toString().startsWith(options.redirectUri)) return url.toString();
    const response = await fetch(url, {
      method,
      redirect: "manual",
      headers: {
        cookie: jar.header(url),
        ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      ...(body ? { body: body.toString() } : {}),
    });
    jar.store(url, response);
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      url = new URL(location, url);
      method = "GET";
      body = undefined;
      continue;
    }
    const html = await response.text();
    const login = formAction(html, /\/login$/);
    const decision = formAction(html, options.consent === "deny" ? /\/abort$/ : /\/confirm$/);
    if (login !== undefined && !loggedIn) {
      loggedIn = true;
      url = new URL(login, url);
      method = "POST";
      body = new URLSearchParams({ username: options.username, password: options.password });
    } else if (decision !== undefined) {
      url = new URL(decision, url);
      method = "POST";
      body = new URLSearchParams();
    } else {
      throw new ProviderPagesError(
        `Unexpected provider page (${response.status}) at ${url.pathname}: ${html.slice(0, 300)}`,
      );
    }
  }
  throw new ProviderPagesError("Too many steps on the provider's pages");
}

/** The provider's pages were not the login and consent pages the driver knows how to fill. */
export class ProviderPagesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProviderPagesError";
  }
}
