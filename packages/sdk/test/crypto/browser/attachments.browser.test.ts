/**
 * Encrypted attachments in Chromium: a file of several pieces goes up as a
 * Blob of the pieces (Chromium streams request bodies only over HTTP/2),
 * comes back through the streamed response hashed by Web Crypto (no
 * incremental hash in a browser) and decrypted byte-identical; a flipped
 * byte is refused with the hash-mismatch message.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Account, TestServerHandle } from "../helpers";
import { register, startServer } from "../helpers";
import { hostPage } from "./host";
import type { PageHost } from "./host";
import type { AttachmentsOutcome } from "./page/attachments-page";

let host: PageHost;
let server: TestServerHandle;
let alice: Account;

beforeAll(async () => {
  server = await startServer(137);
  alice = await register(server, "alice");
  host = await hostPage(new URL("./page/attachments-page.ts", import.meta.url).pathname);
});

afterAll(async () => {
  await host?.close();
  await server?.stop();
});

describe("encrypted attachments in Chromium", () => {
  it("a file of several pieces round trips byte-identical, and a flipped byte is refused", async () => {
    const page = await host.browser.newPage();
    await page.goto(host.url);
    await page.waitForFunction(() => "attachmentsPage" in globalThis);
    const outcome = await page.evaluate(
      ([baseUrl, token]) =>
        (
          globalThis as unknown as {
            attachmentsPage: { run: (b: string, t: string) => Promise<AttachmentsOutcome> };
          }
        ).attachmentsPage.run(baseUrl, token),
      [server.url, alice.accessToken] as const,
    );
    expect(outcome).toEqual({
      engine: "webcrypto",
      size: 2 * 1024 * 1024 + 4321,
      sameBytes: true,
      storedIsCiphertext: true,
      tampered: {
        name: "AttachmentError",
        code: "hash_mismatch",
        message: "Encrypted file hash mismatch: the downloaded data is not the file that was sent",
      },
    });
  });
});
