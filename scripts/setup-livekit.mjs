/**
 * Builds the SFU of the group call tests: a real `livekit-server` and the
 * token service Element Call uses (`lk-jwt-service`), each with Go through
 * the Go module proxy, into the user's cache folder keyed by version:
 * `${XDG_CACHE_HOME:-~/.cache}/lattice/livekit/<version>/livekit-server` and
 * `…/lattice/lk-jwt-service/<version>/lk-jwt-service`. Go's own caches
 * (GOPATH, GOMODCACHE, GOCACHE) live under `…/lattice/go`, so a rebuild and a
 * fresh clone reuse the downloads. A build counts once its marker file is
 * written (after the binary was moved into place); a lock directory keeps
 * two processes from building the same version at once.
 *
 * Versions:
 * - livekit-server v1.13.5: from v1.13.6 on, its go.mod replaces pion's
 *   WebRTC, DTLS and ICE modules by LiveKit forks the module proxy does not
 *   serve here, so v1.13.5 is the newest that builds from the proxy alone.
 * - lk-jwt-service v0.5.0: its go.mod names the module `lk-jwt-service`,
 *   not a path the proxy can serve, so its source comes from a git checkout
 *   (`LATTICE_LK_JWT_SERVICE_SRC`, else the mirror the development machines
 *   keep); the build pins its LiveKit SDK dependencies to versions the proxy
 *   serves (DEPENDENCY_PINS). Without a checkout the build is skipped with a
 *   message and the tests that need the service say so.
 *
 * `node scripts/setup-livekit.mjs [--json]` builds what is missing and prints
 * the binaries' paths (with --json one JSON line: the test helpers read it,
 * so the version table lives here only).
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { withLock } from "./setup-synapse.mjs";

export const LIVEKIT_VERSION = "v1.13.5";
export const JWT_SERVICE_VERSION = "v0.5.0";
/** lk-jwt-service v0.5.0 asks for SDK versions the proxy does not serve; these are the nearest it does. */
const DEPENDENCY_PINS = [
  "github.com/livekit/server-sdk-go/v2@v2.19.0",
  "github.com/livekit/protocol@v1.54.0",
];
const JWT_SERVICE_MIRROR = "/work/.mirror/element-hq+lk-jwt-service/repo";

function cacheRoot() {
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "lattice");
}

/** Where the livekit-server binary of `version` lives. */
export function livekitBinary(version = LIVEKIT_VERSION) {
  return join(cacheRoot(), "livekit", version, "livekit-server");
}

/** Where the lk-jwt-service binary of `version` lives. */
export function jwtServiceBinary(version = JWT_SERVICE_VERSION) {
  return join(cacheRoot(), "lk-jwt-service", version, "lk-jwt-service");
}

function goBinary() {
  for (const candidate of [process.env.GO, "/usr/local/go/bin/go", "go"]) {
    if (!candidate) continue;
    try {
      execFileSync(candidate, ["version"], { stdio: "ignore" });
      return candidate;
    } catch {
      // try the next one
    }
  }
  throw new Error("Go is needed to build livekit-server (go on the PATH or /usr/local/go/bin/go)");
}

function goEnv() {
  const go = join(cacheRoot(), "go");
  return {
    ...process.env,
    GOPATH: go,
    GOMODCACHE: join(go, "pkg", "mod"),
    GOCACHE: join(go, "cache"),
    GOPROXY: process.env.GOPROXY || "https://proxy.golang.org",
    GOFLAGS: "-mod=mod",
    GOTOOLCHAIN: "local",
  };
}

function run(cmd, args, cwd) {
  console.error(`[setup] ${cmd} ${args.join(" ")}${cwd ? ` (in ${cwd})` : ""}`);
  return execFileSync(cmd, args, {
    cwd,
    env: goEnv(),
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 << 20,
  });
}

/** Builds `build(dir, out)` into `binary` unless its marker exists; returns the marker's record. */
function buildOnce(name, version, binary, build) {
  const dir = join(binary, "..");
  const marker = join(dir, "installed.json");
  if (existsSync(marker) && existsSync(binary)) return JSON.parse(readFileSync(marker, "utf8"));
  mkdirSync(dir, { recursive: true });
  return withLock(join(dir, "build.lock"), () => {
    if (existsSync(marker) && existsSync(binary)) return JSON.parse(readFileSync(marker, "utf8"));
    console.error(`[setup] building ${name} ${version} into ${binary}`);
    const work = mkdtempSync(join(tmpdir(), `lattice-${name}-`));
    const started = Date.now();
    try {
      const out = join(dir, `.${name}.partial`);
      build(work, out);
      renameSync(out, binary);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    const record = {
      name,
      version,
      binary,
      buildSeconds: Math.round((Date.now() - started) / 1000),
      builtAt: new Date().toISOString(),
    };
    writeFileSync(marker, JSON.stringify(record) + "\n");
    console.error(`[setup] built ${name} ${version} in ${record.buildSeconds} s`);
    return record;
  });
}

/** Builds livekit-server (cheap when cached); returns the binary's path. */
export function ensureLiveKit() {
  const binary = livekitBinary();
  buildOnce("livekit-server", LIVEKIT_VERSION, binary, (work, out) => {
    const go = goBinary();
    // The module's own go.mod has to be the main module (go install refuses modules with replace directives).
    const info = JSON.parse(
      run(go, [
        "mod",
        "download",
        "-json",
        `github.com/livekit/livekit-server@${LIVEKIT_VERSION}`,
      ]).toString(),
    );
    const src = join(work, "src");
    cpSync(info.Dir, src, { recursive: true });
    execFileSync("chmod", ["-R", "u+w", src]);
    run(go, ["build", "-trimpath", "-o", out, "./cmd/server"], src);
  });
  return binary;
}

/** The git checkout lk-jwt-service is built from, or undefined. */
function jwtServiceSource() {
  const candidates = [process.env.LATTICE_LK_JWT_SERVICE_SRC, JWT_SERVICE_MIRROR].filter(Boolean);
  return candidates.find((dir) => existsSync(join(dir, "HEAD")) || existsSync(join(dir, ".git")));
}

/** Builds lk-jwt-service (cheap when cached); returns the binary's path, or undefined without a source checkout. */
export function ensureJwtService() {
  const binary = jwtServiceBinary();
  if (existsSync(join(binary, "..", "installed.json")) && existsSync(binary)) return binary;
  const repo = jwtServiceSource();
  if (!repo) {
    console.error(
      `[setup] lk-jwt-service ${JWT_SERVICE_VERSION} skipped: it is not served by the Go module proxy; ` +
        "set LATTICE_LK_JWT_SERVICE_SRC to a git checkout of element-hq/lk-jwt-service",
    );
    return undefined;
  }
  buildOnce("lk-jwt-service", JWT_SERVICE_VERSION, binary, (work, out) => {
    const go = goBinary();
    const archive = join(work, "src.tar");
    execFileSync("git", [
      "--git-dir",
      existsSync(join(repo, ".git")) ? join(repo, ".git") : repo,
      "archive",
      "-o",
      archive,
      JWT_SERVICE_VERSION,
    ]);
    const src = join(work, "src");
    mkdirSync(src);
    execFileSync("tar", ["-xf", archive, "-C", src]);
    run(go, ["get", ...DEPENDENCY_PINS], src);
    run(go, ["mod", "tidy"], src);
    run(go, ["build", "-trimpath", "-o", out, "."], src);
  });
  return binary;
}

if (process.argv[1] && new URL(import.meta.url).pathname === process.argv[1]) {
  const json = process.argv.includes("--json");
  const livekit = ensureLiveKit();
  const jwt = ensureJwtService();
  if (json)
    console.log(
      JSON.stringify({
        livekit: { version: LIVEKIT_VERSION, binary: livekit },
        jwtService: { version: JWT_SERVICE_VERSION, binary: jwt ?? null },
      }),
    );
  else {
    console.log(`livekit-server ${LIVEKIT_VERSION}: ${livekit}`);
    console.log(`lk-jwt-service ${JWT_SERVICE_VERSION}: ${jwt ?? "not built (no source checkout)"}`);
  }
}
