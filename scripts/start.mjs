/**
 * `npm start`: sets itself up, starts the local test homeserver with demo
 * data and the web app on loopback, and prints the URL and demo sign-in.
 * Ports: LATTICE_HS_PORT (default 8008), LATTICE_OIDC_PORT (the test OpenID
 * provider, default 8009) and LATTICE_WEB_PORT (default 5173).
 */
import { spawn } from "node:child_process";
import { ensureNodeModules } from "./setup.mjs";

ensureNodeModules();

const root = new URL("..", import.meta.url).pathname;
const hsPort = Number(process.env.LATTICE_HS_PORT ?? 8008);
const oidcPort = Number(process.env.LATTICE_OIDC_PORT ?? hsPort + 1);
const webPort = Number(process.env.LATTICE_WEB_PORT ?? 5173);
const homeserver = `http://127.0.0.1:${hsPort}`;
const provider = `http://127.0.0.1:${oidcPort}`;
const children = [];

function start(name, cmd, args, options = {}) {
  const child = spawn(cmd, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], ...options });
  child.stdout.on("data", (d) => process.stdout.write(`[${name}] ${d}`));
  child.stderr.on("data", (d) => process.stderr.write(`[${name}] ${d}`));
  child.on("exit", (code) => {
    console.error(`[${name}] exited with code ${code}`);
    stopAll(code ?? 1);
  });
  children.push(child);
  return child;
}

function stopAll(code) {
  for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
  process.exit(code);
}
process.on("SIGINT", () => stopAll(0));
process.on("SIGTERM", () => stopAll(0));

async function waitFor(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up in ${timeoutMs} ms`);
}

start("homeserver", "npx", [
  "tsx",
  "packages/testserver/src/cli.ts",
  "--port",
  String(hsPort),
  "--demo",
  "--oidc",
  "--oidc-port",
  String(oidcPort),
]);
await waitFor(`${homeserver}/_matrix/client/versions`, 60_000);
start("web", "npx", ["vite", "--port", String(webPort), "--strictPort"], {
  cwd: `${root}packages/web`,
  env: { ...process.env, VITE_LATTICE_HOMESERVER: homeserver },
});
await waitFor(`http://127.0.0.1:${webPort}/`, 60_000);

console.log(`
Lattice is running.

  Web app:     http://127.0.0.1:${webPort}/
  Homeserver:  ${homeserver}  (in-memory test homeserver with demo data; not for production)
  Provider:    ${provider}  (test OpenID provider: "Continue with 127.0.0.1:${oidcPort}")

  Demo sign-in (homeserver ${homeserver}; the same passwords at the provider,
  or in the password form):
    alice / lattice-alice
    bob   / lattice-bob
    carol / lattice-carol

Press Ctrl+C to stop.
`);
