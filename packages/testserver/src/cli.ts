/**
 * Command line entry of the test homeserver (a development and test
 * server, not a production homeserver):
 *
 *   npx tsx packages/testserver/src/cli.ts [--port 8008] [--demo] [--seed N] [--server-name NAME]
 *     [--oidc] [--oidc-port PORT] [--profile current|legacy]
 *
 * Starts the server on 127.0.0.1, optionally seeds the demo data (and the
 * demo widget page), prints the URL and how to sign in, and stops on
 * SIGINT / SIGTERM. With --oidc the test OpenID provider starts too (on
 * --oidc-port, by default the port after the homeserver's), wired to the
 * homeserver: auth_metadata names it, it signs in the homeserver's users
 * with their passwords, and the homeserver accepts its access tokens.
 * Password sign-in keeps working beside it.
 */
import { parseArgs } from "node:util";
import { DEMO_USERS, seedDemo } from "./demo/seed";
import { startWidgetPage } from "./demo/widget-page";
import { startOidcTestbed } from "./oidc/testbed";
import { startTestServer } from "./server";
import type { TestServerHandle } from "./server";
import type { ServerProfile } from "./core/legacy";

const USAGE =
  "Usage: cli.ts [--port 8008] [--demo] [--seed N] [--server-name localhost] [--oidc] [--oidc-port 8009] [--profile current|legacy]";

function portOf(name: string, value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new CliUsageError(`Invalid --${name}: ${value}`);
  return port;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "8008" },
      demo: { type: "boolean", default: false },
      seed: { type: "string" },
      "server-name": { type: "string" },
      oidc: { type: "boolean", default: false },
      "oidc-port": { type: "string" },
      // "legacy" imitates Synapse 1.67 (core/legacy.ts), to try the app against an old server.
      profile: { type: "string", default: "current" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = portOf("port", values.port);
  // Next to the homeserver by default (8008 -> 8009); a random homeserver port gets a random one.
  const oidcPort = portOf("oidc-port", values["oidc-port"] ?? String(port === 0 ? 0 : port + 1));

  const profile: ServerProfile = values.profile === "legacy" ? "legacy" : "current";
  if (values.profile !== profile) throw new CliUsageError(`Invalid --profile: ${values.profile}`);
  const options = {
    port,
    profile,
    seed: values.seed ?? (values.demo ? "lattice-demo" : undefined),
    serverName: values["server-name"],
    validate: false,
    demo: values.demo,
  };
  let server: TestServerHandle;
  let stopServers: () => Promise<void>;
  let issuer: string | undefined;
  if (values.oidc) {
    const bed = await startOidcTestbed({ homeserver: options, provider: { port: oidcPort } });
    server = bed.homeserver;
    issuer = bed.provider.issuer;
    stopServers = () => bed.stop();
  } else {
    const plain = await startTestServer(options);
    server = plain;
    stopServers = () => plain.stop();
  }
  const widgetPage = values.demo ? await startWidgetPage() : undefined;
  // The server unrefs itself for tests; the CLI keeps the process alive until a signal.
  const keepAlive = setInterval(() => undefined, 1 << 30);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n[testserver] ${signal}: stopping`);
    clearInterval(keepAlive);
    void Promise.all([stopServers(), widgetPage?.stop()]).then(() => process.exit(0));
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));

  console.log(`[testserver] Lattice test homeserver (development and test only) at ${server.url}`);
  if (issuer !== undefined) {
    console.log(`[testserver] OpenID provider (development and test only) at ${issuer}`);
  }
  if (values.demo) {
    const seeded = await seedDemo(server.url, { widgetUrl: widgetPage?.url });
    server.makeAdmin(seeded.users.alice.userId);
    console.log("[testserver] demo accounts (alice is a server admin):");
    for (const u of DEMO_USERS) console.log(`[testserver]   ${u.name} / ${u.password}`);
  }
  console.log(`[testserver] ready: ${server.url}`);
}

main().catch((err: unknown) => {
  console.error("[testserver] failed to start:", err);
  process.exit(1);
});

/** A command-line option the server cannot start with. */
class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CliUsageError";
  }
}
