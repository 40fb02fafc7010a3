/**
 * Command line entry of the test homeserver (a development and test
 * server, not a production homeserver):
 *
 *   npx tsx packages/testserver/src/cli.ts [--port 8008] [--demo] [--seed N] [--server-name NAME]
 *
 * Starts the server on 127.0.0.1, optionally seeds the demo data (and the
 * demo widget page), prints the URL and how to sign in, and stops on
 * SIGINT / SIGTERM.
 */
import { parseArgs } from "node:util";
import { DEMO_USERS, seedDemo } from "./demo/seed";
import { startWidgetPage } from "./demo/widget-page";
import { startTestServer } from "./server";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "8008" },
      demo: { type: "boolean", default: false },
      seed: { type: "string" },
      "server-name": { type: "string" },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    console.log("Usage: cli.ts [--port 8008] [--demo] [--seed N] [--server-name localhost]");
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid --port: ${values.port}`);

  const server = await startTestServer({
    port,
    seed: values.seed ?? (values.demo ? "lattice-demo" : undefined),
    serverName: values["server-name"],
    validate: false,
    demo: values.demo,
  });
  const widgetPage = values.demo ? await startWidgetPage() : undefined;
  // The server unrefs itself for tests; the CLI keeps the process alive until a signal.
  const keepAlive = setInterval(() => undefined, 1 << 30);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n[testserver] ${signal}: stopping`);
    clearInterval(keepAlive);
    void Promise.all([server.stop(), widgetPage?.stop()]).then(() => process.exit(0));
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));

  console.log(`[testserver] Lattice test homeserver (development and test only) at ${server.url}`);
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
