/**
 * A tiny loopback web server for the demo widget: one HTML page that speaks
 * just enough of the widget API (answers the capabilities request and says
 * content_loaded) to appear as a live widget in the demo room.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Lattice demo widget</title>
<style>body{font-family:system-ui,sans-serif;margin:1.5rem;background:#f4f6fb;color:#1b1f2a}</style></head>
<body>
<h1>Lattice demo widget</h1>
<p>This page is served on loopback by the test homeserver's demo. It talks to the client through the widget API.</p>
<p id="status">Waiting for the client…</p>
<script>
const params = new URLSearchParams(location.search);
const widgetId = params.get("widgetId") || "lattice-demo-widget";
let seq = 0;
function send(action, data) {
  window.parent.postMessage({ api: "fromWidget", widgetId, requestId: "w" + (++seq), action, data }, "*");
}
window.addEventListener("message", (ev) => {
  const msg = ev.data;
  if (!msg || msg.api !== "toWidget") return;
  if (msg.action === "capabilities") {
    window.parent.postMessage({ ...msg, response: { capabilities: [] } }, "*");
  } else {
    window.parent.postMessage({ ...msg, response: {} }, "*");
  }
  document.getElementById("status").textContent = "Connected (" + msg.action + ")";
});
send("content_loaded", {});
</script>
</body></html>`;

/** Starts the widget page server on 127.0.0.1; resolves with its URL and a stop function. */
export async function startWidgetPage(port = 0): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = createServer((req, res) => {
    if ((req.url ?? "/").split("?")[0] === "/widget.html") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(PAGE);
    } else {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
    }
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  server.unref();
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/widget.html`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
