/**
 * Uploads that survive: a network failure is retried, a reload (the page
 * cut off at any stage) is taken up from the IndexedDB journal
 * (fake-indexeddb), and neither loses the file nor lists it twice. The
 * journal's record is a persisted shape, so it has a snapshot.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { IndexedDbUploadJournal } from "../../src/files/IndexedDbUploadJournal";
import { FilesService } from "../../src/files/FilesService";
import { MemoryUploadJournal } from "../../src/files/uploads";
import type { UploadRecord } from "../../src/files/uploads";
import { ConnectionError } from "../../src/http/errors";
import { FakeIo } from "./fake-io";
import type { FakeServer } from "./fake-io";
import { bytes, setup, text } from "./helpers";

// idb reads IDBRequest and friends from the globals fake-indexeddb/auto installs.
const { indexedDB } = globalThis as unknown as { indexedDB: object };
let dbCounter = 0;
const fastRetry = { baseDelayMs: 1, maxDelayMs: 4 };

/** A page of `userId` on the server: its FilesService with an IndexedDB journal under `dbName`. */
function page(server: FakeServer, userId: string, dbName: string) {
  const io = new FakeIo(server, userId);
  const files = new FilesService(io);
  const journal = new IndexedDbUploadJournal({ indexedDB, dbName });
  files.fileOps.uploads.useJournal(journal, fastRetry);
  return { io, files, journal };
}

const hang = (): Promise<void> => new Promise<void>(() => undefined);
const messages = (server: FakeServer, roomId: string): number =>
  [...server.room(roomId).events.values()].filter((e) => e.type === "m.room.message").length;

describe("uploads that survive", () => {
  it("a network failure during the upload is retried until the file is in the folder, once", async () => {
    const { server, users } = setup("alice");
    const [alice] = users;
    alice!.files.fileOps.uploads.useJournal(new MemoryUploadJournal(), fastRetry);
    const tree = await alice!.files.createTree("Docs");
    server.catchUp();
    const down = (): Promise<void> => Promise.reject(new ConnectionError("network", "Failed to fetch"));
    alice!.io.faults.upload.push(down, down);
    const id = await alice!.files.fileOps.upload(tree, "a.txt", bytes("alpha"));
    const listing = await alice!.files.open(tree);
    expect(listing.files.map((f) => [f.eventId, f.name])).toEqual([[id, "a.txt"]]);
    expect(text(await alice!.files.fileOps.download(tree, id))).toBe("alpha");
    expect(alice!.io.logs.filter((l) => l.includes("try 2") || l.includes("try 3"))).toHaveLength(2);
    expect(alice!.files.fileOps.uploads.current()).toEqual([]);
  });

  it("a new version between its two branch writes lists the file once, as the new version", async () => {
    const { server, users } = setup("alice");
    const files = users[0]!.files;
    const tree = await files.createTree("Docs");
    server.catchUp();
    const v1 = await files.fileOps.upload(tree, "notes.txt", bytes("one"));
    // The new branch is written; the old branch's write (inactive) waits until released.
    let reached: () => void = () => undefined;
    let release: () => void = () => undefined;
    const between = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    users[0]!.io.faults.sendState.push(
      () => Promise.resolve(),
      () => {
        reached();
        return released;
      },
    );
    const handle = await files.fileOps.startNewVersion(tree, v1, bytes("two"));
    await between;
    const during = await files.open(tree);
    expect(during.files.map((f) => [f.name, f.version, f.eventId === v1])).toEqual([["notes.txt", 2, false]]);
    release();
    const v2 = await handle.done;
    const after = await files.open(tree);
    expect(after.files.map((f) => [f.eventId, f.version])).toEqual([[v2, 2]]);
  });

  it("a reload during the byte upload resumes from IndexedDB: the file arrives once", async () => {
    const { server, users } = setup("alice");
    const tree = await users[0]!.files.createTree("Docs");
    server.catchUp();
    const dbName = `uploads-${++dbCounter}`;
    const first = page(server, "@alice:test", dbName);
    first.io.faults.upload.push(hang);
    const handle = await first.files.fileOps.startUpload(tree, "report.pdf", bytes("the report"), {
      mimetype: "application/pdf",
    });
    expect(handle.name).toBe("report.pdf");
    await first.journal.close(); // the page goes away

    const second = page(server, "@alice:test", dbName);
    const [resumed] = await second.files.fileOps.uploads.resume();
    expect(resumed?.id).toBe(handle.id);
    const eventId = await resumed!.done;
    const listing = await second.files.open(tree);
    expect(listing.files.map((f) => [f.eventId, f.name, f.version])).toEqual([[eventId, "report.pdf", 1]]);
    expect(text(await second.files.fileOps.download(tree, eventId))).toBe("the report");
    expect(messages(server, tree)).toBe(1);
    expect(await second.journal.all()).toEqual([]);
  });

  it("a reload after the message went out sends no second message and writes the branch", async () => {
    const { server, users } = setup("alice");
    const tree = await users[0]!.files.createTree("Docs");
    server.catchUp();
    const dbName = `uploads-${++dbCounter}`;
    const first = page(server, "@alice:test", dbName);
    const v1 = await first.files.fileOps.upload(tree, "plan.txt", bytes("v1"));
    // The server takes the new version's message; the page dies before it hears back.
    const send = first.io.sendMessage.bind(first.io);
    first.io.sendMessage = async (...args) => {
      await send(...args);
      return hang().then(() => "");
    };
    const handle = await first.files.fileOps.startNewVersion(tree, v1, bytes("v2"));
    await expect.poll(() => messages(server, tree)).toBe(2);
    await first.journal.close();

    const second = page(server, "@alice:test", dbName);
    const [resumed] = await second.files.fileOps.uploads.resume();
    expect(resumed?.replaces).toBe(v1);
    const v2 = await resumed!.done;
    expect(messages(server, tree)).toBe(2);
    const listing = await second.files.open(tree);
    expect(listing.files.map((f) => [f.eventId, f.version])).toEqual([[v2, 2]]);
    expect((await second.files.fileOps.history(tree, v2)).map((v) => v.version)).toEqual([2, 1]);
    expect(text(await second.files.fileOps.download(tree, v2))).toBe("v2");
    expect(handle.id).toBe(resumed!.id);
  });

  it("a cancelled upload leaves nothing to resume", async () => {
    const { server, users } = setup("alice");
    const tree = await users[0]!.files.createTree("Docs");
    server.catchUp();
    const dbName = `uploads-${++dbCounter}`;
    const first = page(server, "@alice:test", dbName);
    const abort = new AbortController();
    first.io.faults.upload.push(() => {
      abort.abort();
      return Promise.reject(new ConnectionError("aborted", "The request was aborted"));
    });
    await expect(
      first.files.fileOps.upload(tree, "gone.txt", bytes("x"), { signal: abort.signal }),
    ).rejects.toThrow("The request was aborted");
    expect(await first.journal.all()).toEqual([]);
    expect(await first.files.fileOps.uploads.resume()).toEqual([]);
  });

  it("the journal's record keeps its persisted shape", async () => {
    const { server, users } = setup("alice");
    const tree = await users[0]!.files.createTree("Docs");
    server.catchUp();
    const first = page(server, "@alice:test", `uploads-${++dbCounter}`);
    first.io.faults.upload.push(hang);
    await first.files.fileOps.startUpload(tree, "a.txt", bytes("ab"), { mimetype: "text/plain" });
    const [record] = await first.journal.all();
    const shape = (r: UploadRecord): Record<string, unknown> => ({
      ...r,
      id: typeof r.id,
      roomId: typeof r.roomId,
      createdAt: typeof r.createdAt,
      data: r.data ? [...r.data] : undefined,
    });
    expect(shape(record!)).toMatchInlineSnapshot(`
      {
        "createdAt": "number",
        "data": [
          97,
          98,
        ],
        "id": "string",
        "mimetype": "text/plain",
        "name": "a.txt",
        "roomId": "string",
        "size": 2,
        "stage": "upload",
        "version": 1,
      }
    `);
  });
});
