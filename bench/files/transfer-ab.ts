/**
 * bench/files A/B: the encrypted transfer alone, three ways in one run on
 * one machine load, so their ratios compare even on a busy machine:
 *   - raw: POST /upload of the plain bytes and GET of them, with fetch;
 *   - one-shot: encryptAttachment, upload, download, decryptAttachment
 *     (whole-file steps before and after the transfer: the code before the
 *     pieces);
 *   - pieces: uploadEncryptedAttachment / downloadEncryptedAttachment
 *     (encrypted, hashed and decrypted in pieces while the bytes travel).
 * The three alternate within each repeat; medians are reported.
 *
 * Run: npx tsx bench/files/transfer-ab.ts [--repeats 5] [--mb 50]
 */
import { randomFillSync } from "node:crypto";
import { parseArgs } from "node:util";
import { startTestServer } from "@lattice/testserver";
import { registerUser } from "@lattice/testserver/test/helpers";
import { downloadContent, uploadContent } from "@lattice/sdk/api/media";
import {
  decryptAttachment,
  downloadEncryptedAttachment,
  encryptAttachment,
  uploadEncryptedAttachment,
} from "@lattice/sdk/crypto/attachments/index";
import { createHttpClient } from "@lattice/sdk/http/client";
import { median, megabytesPerSecond, percentOfRaw } from "./report";

const { values } = parseArgs({
  options: { repeats: { type: "string", default: "5" }, mb: { type: "string", default: "50" } },
});
const REPEATS = Number(values.repeats);
const SIZE = Math.round(Number(values.mb) * 1e6);

type Way = "raw" | "one-shot" | "pieces";
const WAYS: Way[] = ["raw", "one-shot", "pieces"];

async function main(): Promise<void> {
  const server = await startTestServer({ validate: false });
  const user = await registerUser(server, `ab${Date.now()}`);
  const http = createHttpClient({ baseUrl: server.url, accessToken: user.accessToken });
  const data = new Uint8Array(SIZE);
  randomFillSync(data);
  const up: Record<Way, number[]> = { raw: [], "one-shot": [], pieces: [] };
  const down: Record<Way, number[]> = { raw: [], "one-shot": [], pieces: [] };
  const same = (a: Uint8Array): boolean => Buffer.compare(a, data) === 0;
  const run: Record<Way, () => Promise<[number, number]>> = {
    raw: async () => {
      let t = performance.now();
      const { content_uri } = await uploadContent(http, data);
      const u = performance.now() - t;
      t = performance.now();
      const back = (await downloadContent(http, content_uri)).data;
      const d = performance.now() - t;
      if (!same(back)) throw new Error("raw differs");
      return [u, d];
    },
    "one-shot": async () => {
      let t = performance.now();
      const encrypted = await encryptAttachment(data);
      const { content_uri } = await uploadContent(http, encrypted.data);
      const u = performance.now() - t;
      t = performance.now();
      const cipher = (await downloadContent(http, content_uri)).data;
      const back = await decryptAttachment(cipher, { ...encrypted.file, url: content_uri });
      const d = performance.now() - t;
      if (!same(back)) throw new Error("one-shot differs");
      return [u, d];
    },
    pieces: async () => {
      let t = performance.now();
      const file = await uploadEncryptedAttachment(http, data);
      const u = performance.now() - t;
      t = performance.now();
      const back = await downloadEncryptedAttachment(http, file);
      const d = performance.now() - t;
      if (!same(back)) throw new Error("pieces differ");
      return [u, d];
    },
  };
  try {
    await run.pieces(); // warm-up
    for (let i = 0; i < REPEATS; i++) {
      for (let k = 0; k < WAYS.length; k++) {
        const way = WAYS[(i + k) % WAYS.length] as Way;
        const [u, d] = await run[way]();
        up[way].push(u);
        down[way].push(d);
      }
    }
  } finally {
    await server.stop();
  }
  const rate = (ms: number[]): number => megabytesPerSecond(SIZE, median(ms));
  console.log(`Transfer of ${SIZE.toLocaleString("en")} bytes, median of ${REPEATS} (MB/s):`);
  for (const [what, times] of [
    ["upload", up],
    ["download", down],
  ] as const) {
    const raw = rate(times.raw);
    const cells = WAYS.map(
      (w) => `${w} ${rate(times[w]).toFixed(1)} (${percentOfRaw(rate(times[w]), raw).toFixed(0)} %)`,
    );
    console.log(`  ${what.padEnd(8)} ${cells.join("   ")}`);
  }
}

await main();
