/**
 * bench/files: the file tree against the test homeserver on loopback.
 *
 * 1. Transfer of one 50 MB file (50,000,000 random bytes), repeated:
 *    - raw: POST /_matrix/media/v3/upload of the plain bytes and GET of them
 *      back, with fetch, nothing else;
 *    - Lattice: (await client.files()).fileOps.upload (AES-CTR encryption and SHA-256,
 *      the upload, the Megolm-encrypted m.file message and its branch
 *      state) and fileOps.download (the event fetched and decrypted, the
 *      download, the hash check, AES-CTR decryption), bytes compared.
 *    Raw and Lattice alternate within each repeat; medians are reported,
 *    and Lattice as a percentage of raw (target: at least 70 %).
 * 2. Listing a folder of 1,000 files (uploaded through the tree): the time
 *    of files.open(folder) cold (a fresh client that has not synced: GET
 *    /state, then the listing) and warm (from sync's state).
 *
 * Run: npx tsx bench/files/run.ts [--repeats 3] [--files 1000] [--mb 50]
 */
import { randomFillSync } from "node:crypto";
import { parseArgs } from "node:util";
import { startTestServer } from "@lattice/testserver";
import { createClient } from "@lattice/sdk/client";
import type { Client } from "@lattice/sdk/client";
import { registerUser } from "@lattice/testserver/test/helpers";
import { median, megabytesPerSecond, percentOfRaw } from "./report";

const { values } = parseArgs({
  options: {
    repeats: { type: "string", default: "3" },
    files: { type: "string", default: "1000" },
    mb: { type: "string", default: "50" },
  },
});
const REPEATS = Number(values.repeats);
const FILES = Number(values.files);
const SIZE = Math.round(Number(values.mb) * 1e6);

const quiet = { info: (): void => undefined, warn: (): void => undefined, error: (): void => undefined };

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.byteLength === b.byteLength && Buffer.compare(a, b) === 0;
}

async function main(): Promise<void> {
  const server = await startTestServer({ validate: false });
  const user = await registerUser(server, `bench${Date.now()}`);
  const start = async (): Promise<Client> => {
    const client = createClient({
      baseUrl: server.url,
      accessToken: user.accessToken,
      userId: user.userId,
      deviceId: user.deviceId,
      logger: quiet,
      crypto: true,
      sync: { pollTimeoutMs: 1_000 },
    });
    await client.start();
    return client;
  };
  const client = await start();
  try {
    const files = await client.files();
    const tree = await files.createTree("Bench");
    // Warm-up: loads the crypto engine and the Megolm session, which a 50 MB file should not pay for.
    await files.fileOps.upload(tree, "warm-up.txt", new Uint8Array(16));

    const data = new Uint8Array(SIZE);
    randomFillSync(data);
    const auth = { Authorization: `Bearer ${user.accessToken}` };
    const raw = { up: [] as number[], down: [] as number[] };
    const lattice = { up: [] as number[], down: [] as number[] };
    for (let i = 0; i < REPEATS; i++) {
      const rawFirst = i % 2 === 0;
      const runRaw = async (): Promise<void> => {
        const [uri, up] = await timed(async () => {
          const response = await fetch(`${server.url}/_matrix/media/v3/upload`, {
            method: "POST",
            headers: { ...auth, "Content-Type": "application/octet-stream" },
            body: data,
          });
          return ((await response.json()) as { content_uri: string }).content_uri;
        });
        const [back, down] = await timed(async () => {
          const path = uri.slice("mxc://".length);
          const response = await fetch(`${server.url}/_matrix/client/v1/media/download/${path}`, {
            headers: auth,
          });
          return new Uint8Array(await response.arrayBuffer());
        });
        if (!equal(back, data)) throw new Error("raw download differs");
        raw.up.push(up);
        raw.down.push(down);
      };
      const runLattice = async (): Promise<void> => {
        const [eventId, up] = await timed(() => files.fileOps.upload(tree, `big-${i}.bin`, data));
        const [back, down] = await timed(() => files.fileOps.download(tree, eventId));
        if (!equal(back, data)) throw new Error("Lattice download differs");
        lattice.up.push(up);
        lattice.down.push(down);
      };
      if (rawFirst) {
        await runRaw();
        await runLattice();
      } else {
        await runLattice();
        await runRaw();
      }
    }
    const rate = (ms: number[]): number => megabytesPerSecond(SIZE, median(ms));
    const rows = [
      ["upload", rate(raw.up), rate(lattice.up)],
      ["download", rate(raw.down), rate(lattice.down)],
    ] as const;
    console.log(
      `\nTransfer of ${SIZE.toLocaleString("en")} bytes, median of ${REPEATS} (MB/s = 10^6 bytes/s):`,
    );
    for (const [what, r, l] of rows) {
      console.log(
        `  ${what.padEnd(8)} raw ${r.toFixed(1).padStart(7)} MB/s   Lattice (encrypted) ${l.toFixed(1).padStart(7)} MB/s   ${percentOfRaw(l, r).toFixed(0)} % of raw`,
      );
    }

    // A folder of FILES files, uploaded through the tree a few at a time.
    const folder = await files.createFolder(tree, "Many");
    const [, fill] = await timed(async () => {
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < FILES) {
          const n = next++;
          await files.fileOps.upload(folder, `file-${String(n).padStart(4, "0")}.txt`, new Uint8Array(64));
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
    });
    // Warm: sync's state, once sync holds every branch.
    for (;;) {
      const synced =
        client.rooms.find(folder)?.getSnapshot().state.ofType("org.matrix.msc3089.branch").size ?? 0;
      if (synced >= FILES) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const warm: number[] = [];
    for (let i = 0; i < 5; i++) {
      const [listing, ms] = await timed(() => files.open(folder));
      if (listing.files.length !== FILES) throw new Error(`listed ${listing.files.length} of ${FILES}`);
      warm.push(ms);
    }
    // Cold: a client that has not synced reads the folder over GET /state.
    const cold: number[] = [];
    for (let i = 0; i < 3; i++) {
      const fresh = createClient({
        baseUrl: server.url,
        accessToken: user.accessToken,
        userId: user.userId,
        deviceId: user.deviceId,
        logger: quiet,
        crypto: false,
      });
      // The cold listing includes loading the file service (a cached module here, its own chunk in a browser).
      const [listing, ms] = await timed(async () => (await fresh.files()).open(folder));
      if (listing.files.length !== FILES) throw new Error(`cold listed ${listing.files.length} of ${FILES}`);
      cold.push(ms);
      await fresh.dispose();
    }
    console.log(`\nFolder of ${FILES} files (filled in ${(fill / 1000).toFixed(1)} s):`);
    console.log(`  list, warm (sync's state), median of 5:   ${median(warm).toFixed(1)} ms`);
    console.log(`  list, cold (GET /state), median of 3:     ${median(cold).toFixed(1)} ms`);
  } finally {
    await client.dispose();
    await server.stop();
  }
}

await main();
