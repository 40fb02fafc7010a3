/**
 * Files in Chromium against the test homeserver: alice makes a folder tree,
 * uploads a file by drag and drop (bytes built in the page, dropped as a
 * DataTransfer), shares the folder with bob as viewer; bob accepts, sees
 * the file alice then drops, downloads it (decrypted in his browser: the bytes compared) and
 * has no upload control; alice makes bob an editor and adds a version; the
 * history lists both versions.
 */
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { registerUser, startWebHarness } from "./harness";

const web = startWebHarness({
  async seed(server) {
    await Promise.all([registerUser(server.url, "alice"), registerUser(server.url, "bob")]);
  },
});

const CONTENT = "hello from alice's files view";

async function openFiles(page: Page): Promise<void> {
  await page.getByTestId("open-files").click();
  await page.getByTestId("files-view").waitFor();
}

/** Drops a text file on the folder, as a drag from the desktop would. */
async function dropFile(page: Page, name: string, text: string): Promise<void> {
  await page.evaluate(
    ([fileName, body]) => {
      const target = document.querySelector('[data-testid="files-drop"]')!;
      const transfer = new DataTransfer();
      transfer.items.add(new File([body], fileName, { type: "text/plain" }));
      for (const type of ["dragover", "drop"]) {
        target.dispatchEvent(
          new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }),
        );
      }
    },
    [name, text] as const,
  );
}

describe("files", () => {
  it("drag and drop upload, share as viewer then editor, download and compare bytes, version history", async () => {
    const alice = await web.signIn("alice");
    await openFiles(alice);
    alice.once("dialog", (d) => void d.accept("Team"));
    await alice.getByRole("button", { name: "New folder tree" }).click();
    await alice.getByText("Your role: Owner").waitFor({ timeout: 30_000 });

    // Share with bob as a viewer; the dialog says what each role may do.
    await alice.getByRole("button", { name: "Share" }).click();
    const share = alice.getByRole("dialog", { name: "Share “Team”" });
    await share.getByText("Can see and download files").waitFor();
    await share.getByLabel("User ID").fill("@bob:localhost");
    await share.getByRole("button", { name: "Share", exact: true }).click();
    await share.locator('[data-user="@bob:localhost"]').getByText("Viewer").waitFor({ timeout: 30_000 });
    await alice.keyboard.press("Escape");

    // Bob: accepts, sees the file, downloads it; as a viewer he has no upload control.
    const bob = await web.signIn("bob");
    await openFiles(bob);
    await bob.getByRole("button", { name: "Team" }).click({ timeout: 60_000 });
    await bob.getByText("Your role: Viewer").waitFor({ timeout: 30_000 });
    expect(await bob.getByTestId("files-upload").count()).toBe(0);

    // Alice drops a file now that bob is in (room keys go to the members present when it is sent).
    await dropFile(alice, "notes.txt", CONTENT);
    await alice.locator('[data-file="notes.txt"]').waitFor({ timeout: 60_000 });
    expect(await alice.getByTestId("files-uploads").textContent()).toContain("Uploaded");
    await bob.locator('[data-file="notes.txt"]').waitFor({ timeout: 60_000 });
    await bob.locator('[data-file="notes.txt"]').click({ timeout: 30_000 });
    const downloading = bob.waitForEvent("download");
    await bob.getByRole("button", { name: "Download" }).first().click();
    const download = await downloading;
    expect(await readFile(await download.path(), "utf8")).toBe(CONTENT);
    await bob.keyboard.press("Escape");

    // Alice makes bob an editor, and adds a version; the history lists both.
    await alice.getByRole("button", { name: "Share" }).click();
    await share.getByLabel("User ID").fill("@bob:localhost");
    await share.getByRole("combobox", { name: "Role" }).selectOption("editor");
    await share.getByRole("button", { name: "Share", exact: true }).click();
    await share.locator('[data-user="@bob:localhost"]').getByText("Editor").waitFor({ timeout: 30_000 });
    await alice.keyboard.press("Escape");
    await alice.locator('[data-file="notes.txt"]').click();
    await alice.getByTestId("files-new-version").setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("second version"),
    });
    await alice.locator('[data-file="notes.txt"]').getByText("v2").waitFor({ timeout: 60_000 });
    await alice.locator('[data-file="notes.txt"]').click();
    const history = alice.getByTestId("files-history");
    await history.locator('[data-version="1"]').waitFor({ timeout: 30_000 });
    expect(await history.locator("li").count()).toBe(2);
  }, 400_000);
});
