/**
 * The command line entry with --oidc, as `npm start` runs it: a child
 * process on random ports, whose homeserver names the provider in
 * auth_metadata (and the unstable auth_issuer), whose provider serves its
 * discovery document, whose users sign in at the provider with their
 * homeserver passwords, and whose password login still works.
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { driveProviderLogin } from "../src/oidc";

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
const REDIRECT_URI = "http://127.0.0.1:9/cb";

let child: ChildProcess | undefined;
let homeserver = "";
let issuer = "";

/** Starts the CLI and waits for its "ready" line, collecting the URLs it prints. */
async function startCli(args: string[]): Promise<void> {
  const proc = spawn(process.execPath, ["--import", "tsx", CLI, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child = proc;
  let out = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`CLI not ready in 15 s:\n${out}`)), 15_000);
    proc.stderr?.on("data", (d: Buffer) => (out += d.toString()));
    proc.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const hs = /test homeserver .* at (http:\S+)/.exec(out);
      const op = /OpenID provider .* at (http:\S+)/.exec(out);
      if (hs?.[1] !== undefined) homeserver = hs[1];
      if (op?.[1] !== undefined) issuer = op[1];
      if (out.includes("[testserver] ready:")) {
        clearTimeout(timer);
        resolve();
      }
    });
    proc.on("exit", (code) => reject(new Error(`CLI exited with ${code}:\n${out}`)));
  });
}

beforeAll(async () => {
  await startCli(["--port", "0", "--oidc", "--oidc-port", "0"]);
}, 20_000);

afterAll(async () => {
  const proc = child;
  if (proc === undefined || proc.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    proc.on("exit", () => resolve());
    proc.kill("SIGTERM");
  });
});

async function json(url: string, init?: RequestInit): Promise<Record<string, unknown>> {
  const res = await fetch(url, init);
  expect(res.ok, `${url}: ${res.status}`).toBe(true);
  return (await res.json()) as Record<string, unknown>;
}

it("starts the provider with the homeserver: auth_metadata, auth_issuer, discovery, provider sign-in and password login", async () => {
  expect(homeserver).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(issuer).not.toBe(homeserver);

  const metadata = await json(`${homeserver}/_matrix/client/v1/auth_metadata`);
  expect(metadata["issuer"]).toBe(issuer);
  const unstable = await json(`${homeserver}/_matrix/client/unstable/org.matrix.msc2965/auth_issuer`);
  expect(unstable["issuer"]).toBe(issuer);
  const discovery = await json(`${issuer}/.well-known/openid-configuration`);
  expect(discovery["issuer"]).toBe(issuer);
  expect(discovery["registration_endpoint"]).toEqual(expect.stringMatching(/^http:/));

  // A homeserver user (as the demo users are) with a password.
  const register = await json(`${homeserver}/_matrix/client/v3/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "dana", password: "pw-dana", auth: { type: "m.login.dummy" } }),
  });
  expect(register["user_id"]).toEqual(expect.stringMatching(/^@dana:/));

  // The same password at the provider: a code comes back to the client.
  const client = await json(String(discovery["registration_endpoint"]), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: "none",
      application_type: "web",
    }),
  });
  const verifier = randomBytes(48).toString("base64url");
  const url = new URL(String(discovery["authorization_endpoint"]));
  url.search = new URLSearchParams({
    client_id: String(client["client_id"]),
    response_type: "code",
    redirect_uri: REDIRECT_URI,
    scope: "openid urn:matrix:client:api:* urn:matrix:client:device:CLIDEVICE1",
    state: "statestate",
    nonce: "noncenonce",
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
  }).toString();
  const landed = new URL(
    await driveProviderLogin(url.toString(), {
      username: "dana",
      password: "pw-dana",
      redirectUri: REDIRECT_URI,
    }),
  );
  expect(landed.searchParams.get("code")).toEqual(expect.any(String));
  expect(landed.searchParams.get("state")).toBe("statestate");

  // Password login keeps working beside the provider.
  const login = await json(`${homeserver}/_matrix/client/v3/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      type: "m.login.password",
      identifier: { type: "m.id.user", user: "dana" },
      password: "pw-dana",
    }),
  });
  expect(login["access_token"]).toEqual(expect.any(String));
});
