/**
 * A TLS front for the test homeserver's federation side. The token service
 * checks a member's OpenID token by calling
 * `GET /_matrix/federation/v1/openid/userinfo` on the server named in the
 * token (`matrix_server_name`), resolved the federation way, always over
 * HTTPS. A server name of the form `127.0.0.1:<port>` resolves to exactly
 * that address with no well-known or SRV look-up, so the front listens on a
 * random loopback port with a self-signed certificate (the service is
 * started with its skip-verify switch) and passes the requests on to the
 * homeserver's plain HTTP URL. The homeserver is started after the front,
 * with the front's server name, and then set as its upstream.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

let certificate: { key: string; cert: string } | undefined;

/** A self-signed certificate for 127.0.0.1, made once per process with openssl. */
export function selfSignedCertificate(): { key: string; cert: string } {
  if (certificate) return certificate;
  const dir = mkdtempSync(join(tmpdir(), "lattice-tls-"));
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "2",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        join(dir, "key.pem"),
        "-out",
        join(dir, "cert.pem"),
      ],
      { stdio: "ignore" },
    );
    certificate = {
      key: readFileSync(join(dir, "key.pem"), "utf8"),
      cert: readFileSync(join(dir, "cert.pem"), "utf8"),
    };
    return certificate;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A running TLS front. */
export interface FederationFront {
  /** The server name that resolves to this front: `127.0.0.1:<port>`. */
  readonly serverName: string;
  readonly port: number;
  /** Points the front at the homeserver's HTTP base URL. */
  setUpstream(url: string): void;
  stop(): Promise<void>;
}

/** Starts the front on a random loopback port; requests before {@link FederationFront.setUpstream} get 502. */
export async function startFederationTls(): Promise<FederationFront> {
  let upstream: string | undefined;
  const server: Server = createServer(selfSignedCertificate(), (req, res) => {
    const target = upstream;
    if (target === undefined || req.method !== "GET") {
      res.writeHead(target === undefined ? 502 : 405).end();
      return;
    }
    fetch(new URL(req.url ?? "/", target), { signal: AbortSignal.timeout(10_000) })
      .then(async (answer) => {
        res.writeHead(answer.status, {
          "content-type": answer.headers.get("content-type") ?? "application/json",
        });
        res.end(Buffer.from(await answer.arrayBuffer()));
      })
      .catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref();
  const port = (server.address() as AddressInfo).port;
  return {
    serverName: `127.0.0.1:${port}`,
    port,
    setUpstream: (url) => {
      upstream = url;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
