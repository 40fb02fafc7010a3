/**
 * The Content-Security-Policy of the web app, injected as a meta tag by the
 * Vite config into every page it serves or builds. See
 * docs/architecture/0020-web-safe-html-and-csp.md for why each directive is what it is.
 *
 * - script-src 'self' (+ 'wasm-unsafe-eval' for the crypto WebAssembly): no
 *   inline script, no eval, no remote script.
 * - connect-src: a client talks to whatever homeserver the user names, so
 *   any https: origin; plain http only for the configured homeserver and
 *   loopback (local development and tests).
 * - img-src/media-src: the app itself, blob: (authenticated media arrive as
 *   object URLs) and data: (generated placeholders); never a remote URL, so
 *   remote HTML cannot make the browser fetch a tracker.
 * - style-src: 'self' in the built page; the dev server injects CSS modules
 *   as <style> elements, so it also needs 'unsafe-inline' there (styles
 *   only, scripts stay strict).
 * - frame-src: the app's own blank parser frame (see parserFrame.ts) and
 *   widgets, which run at any https: origin (plain http only on loopback,
 *   as for connect-src); each widget frame is sandboxed on its own
 *   (docs/architecture/0032-widget-ui.md). Remote HTML never gets a frame:
 *   the sanitiser drops <iframe>.
 * - object-src 'none', base-uri 'none', form-action 'none'.
 */

/** The directives, for the given homeserver and mode. */
export function contentSecurityPolicy(options: { homeserver?: string | undefined; dev: boolean }): string {
  const connect = ["'self'", "https:", "http://127.0.0.1:*", "http://localhost:*"];
  if (options.homeserver !== undefined) {
    try {
      const origin = new URL(options.homeserver).origin;
      if (!connect.includes(origin)) connect.push(origin);
    } catch {
      // Not a URL (a server name): https: already covers it.
    }
  }
  if (options.dev) connect.push("ws://127.0.0.1:*", "ws://localhost:*");
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'wasm-unsafe-eval'"],
    "style-src": options.dev ? ["'self'", "'unsafe-inline'"] : ["'self'"],
    "img-src": ["'self'", "blob:", "data:"],
    "media-src": ["'self'", "blob:"],
    "font-src": ["'self'"],
    "connect-src": connect,
    "worker-src": ["'self'", "blob:"],
    "frame-src": ["'self'", "https:", "http://127.0.0.1:*", "http://localhost:*"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
    "manifest-src": ["'self'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}
