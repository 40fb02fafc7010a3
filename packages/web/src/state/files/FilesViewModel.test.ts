/**
 * The Files view model over a real FilesService on the SDK's in-memory
 * test server: sort and search, uploads with progress rows, a viewer's
 * refusal shown as the error line, sharing, history and download.
 */
import { describe, expect, it } from "vitest";
import { FilesService } from "@lattice/sdk/files/FilesService";
import { MemoryUploadJournal } from "@lattice/sdk/files/uploads";
import { FakeIo, FakeServer } from "@lattice/sdk/test/files/fake-io";
import { FilesViewModel, ROLE_DESCRIPTIONS, visibleRows } from "./FilesViewModel";
import type { FileRow } from "./FilesViewModel";

function user(server: FakeServer, name: string): FilesViewModel {
  return new FilesViewModel({ files: new FilesService(new FakeIo(server, `@${name}:test`)) });
}

const file = (name: string, text: string, type = "text/plain") => ({
  name,
  type,
  bytes: () => Promise.resolve(new TextEncoder().encode(text).buffer),
});

describe("FilesViewModel", () => {
  it("creates a tree, uploads with progress rows, lists with details, downloads and reads history", async () => {
    const server = new FakeServer();
    const vm = user(server, "alice");
    await vm.createTree("Team");
    server.catchUp();
    await vm.upload([file("b.txt", "bee"), file("a.txt", "a")]);
    expect(vm.uploads.getSnapshot().map((u) => [u.name, u.status, u.sent])).toEqual([
      ["b.txt", "done", 3],
      ["a.txt", "done", 1],
    ]);
    const folder = vm.folder.getSnapshot();
    if (folder.kind !== "ready") throw new Error(folder.kind);
    expect(folder.rows.map((r) => [r.entry.name, r.details?.size, r.details?.mimetype])).toEqual([
      ["a.txt", 1, "text/plain"],
      ["b.txt", 3, "text/plain"],
    ]);
    const b = folder.rows[1]!.entry;
    await vm.newVersion(b.roomId, b.eventId, file("b.txt", "bee 2"));
    const after = vm.folder.getSnapshot();
    if (after.kind !== "ready") throw new Error(after.kind);
    const current = after.rows.find((r) => r.entry.name === "b.txt")!.entry;
    const history = await vm.history(current.roomId, current.eventId);
    expect(history.map((v) => v.version)).toEqual([2, 1]);
    const old = await vm.download(current.roomId, history[1]!.eventId);
    expect(new TextDecoder().decode(old!)).toBe("bee");
  });

  it("shows a refusal as the error line: a viewer cannot upload, owners cannot be demoted", async () => {
    const server = new FakeServer();
    const alice = user(server, "alice");
    const bob = user(server, "bob");
    await alice.createTree("Team");
    server.catchUp();
    const folder = alice.folder.getSnapshot();
    if (folder.kind !== "ready") throw new Error(folder.kind);
    const roomId = folder.listing.roomId;
    expect(await alice.share(roomId, "@bob:test", "viewer", false)).toBe(true);
    bob.refreshTrees();
    expect(bob.invites.getSnapshot().map((i) => i.roomId)).toEqual([roomId]);
    await bob.accept(roomId);
    await bob.upload([file("x.txt", "x")]);
    expect(bob.uploads.getSnapshot()[0]).toMatchObject({
      status: "failed",
      error: "Viewers cannot upload, rename, move or delete files",
    });
    expect(await alice.share(roomId, "@alice:test", "viewer", false)).toBe(false);
    expect(alice.error.getSnapshot()).toBe("Owners cannot be demoted");
    expect(ROLE_DESCRIPTIONS.viewer).toBe("Can see and download files");
  });

  it("a role change in the open folder is read again: a demoted editor's view turns read-only", async () => {
    const server = new FakeServer();
    const alice = user(server, "alice");
    const bobIo = new FakeIo(server, "@bob:test");
    const bob = new FilesViewModel({ files: new FilesService(bobIo) });
    bob.attach();
    await alice.createTree("Team");
    server.catchUp();
    const folder = alice.folder.getSnapshot();
    if (folder.kind !== "ready") throw new Error(folder.kind);
    const roomId = folder.listing.roomId;
    await alice.share(roomId, "@bob:test", "editor", false);
    await bob.accept(roomId);
    const role = (): string | undefined => {
      const f = bob.folder.getSnapshot();
      return f.kind === "ready" ? f.listing.myRole : undefined;
    };
    expect(role()).toBe("editor");
    await alice.share(roomId, "@bob:test", "viewer", false);
    // Sync tells bob's model the folder changed.
    for (const listener of bobIo.changeListeners) listener(new Set([roomId]));
    await expect.poll(role).toBe("viewer");
  });

  it("an upload a reload cut off shows as a row again and completes, listed once", async () => {
    const server = new FakeServer();
    const journal = new MemoryUploadJournal();
    const firstIo = new FakeIo(server, "@alice:test");
    const first = new FilesViewModel({ files: new FilesService(firstIo) }, { journal });
    await first.createTree("Team");
    server.catchUp();
    const folder = first.folder.getSnapshot();
    if (folder.kind !== "ready") throw new Error(folder.kind);
    const roomId = folder.listing.roomId;
    // The page goes away while the bytes are on their way.
    firstIo.faults.upload.push(() => new Promise<void>(() => undefined));
    void first.upload([file("cut.txt", "cut off")]);
    await expect.poll(async () => (await journal.all()).length).toBe(1);

    const second = new FilesViewModel(
      { files: new FilesService(new FakeIo(server, "@alice:test")) },
      { journal },
    );
    await second.open(roomId);
    await second.resumeUploads();
    expect(second.uploads.getSnapshot().map((u) => [u.name, u.status, u.sent])).toEqual([
      ["cut.txt", "done", 7],
    ]);
    const after = second.folder.getSnapshot();
    if (after.kind !== "ready") throw new Error(after.kind);
    expect(after.rows.map((r) => r.entry.name)).toEqual(["cut.txt"]);
    expect(await journal.all()).toEqual([]);
  });

  it("an earlier open that finishes last does not put its older rows back", async () => {
    const server = new FakeServer();
    const io = new FakeIo(server, "@alice:test");
    const files = new FilesService(io);
    const vm = new FilesViewModel({ files });
    await vm.createTree("Team");
    server.catchUp();
    const ready = vm.folder.getSnapshot();
    if (ready.kind !== "ready") throw new Error(ready.kind);
    const roomId = ready.listing.roomId;
    await files.fileOps.upload(roomId, "a.txt", new TextEncoder().encode("a"));
    // The first open's details wait; meanwhile a file arrives and a second open completes.
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const fetchEvent = io.fetchEvent.bind(io);
    io.fetchEvent = async (...args) => {
      await gate;
      return fetchEvent(...args);
    };
    const first = vm.open(roomId);
    await files.fileOps.upload(roomId, "b.txt", new TextEncoder().encode("b"));
    io.fetchEvent = fetchEvent;
    await vm.open(roomId);
    release();
    await first;
    const after = vm.folder.getSnapshot();
    if (after.kind !== "ready") throw new Error(after.kind);
    expect(after.rows.map((r) => [r.entry.name, r.details?.size])).toEqual([
      ["a.txt", 1],
      ["b.txt", 1],
    ]);
  });

  it("reading the shown folder again keeps it on screen (no loading state to unmount the share dialog)", async () => {
    const server = new FakeServer();
    const vm = user(server, "alice");
    await vm.createTree("Team");
    server.catchUp();
    const shown = vm.folder.getSnapshot();
    if (shown.kind !== "ready") throw new Error(shown.kind);
    const kinds: string[] = [];
    const stop = vm.folder.subscribe((f) => kinds.push(f.kind));
    await vm.open(shown.listing.roomId);
    stop();
    expect(kinds.length).toBeGreaterThan(0);
    expect(kinds.every((k) => k === "ready")).toBe(true);
  });

  it("sorts and searches rows by name", () => {
    const row = (name: string, size: number, ts: number): FileRow => ({
      entry: {
        roomId: "!r",
        eventId: `$${name}`,
        name,
        version: 1,
        locked: false,
        updatedBy: "@a:test",
        updatedTs: ts,
      },
      details: { eventId: `$${name}`, sender: "@a:test", ts, body: name, size, file: {} },
    });
    const rows = [row("Beta.txt", 5, 1), row("alpha.txt", 50, 3), row("gamma.pdf", 1, 2)];
    expect(visibleRows(rows, "name", "").map((r) => r.entry.name)).toEqual([
      "alpha.txt",
      "Beta.txt",
      "gamma.pdf",
    ]);
    expect(visibleRows(rows, "size", "").map((r) => r.entry.name)).toEqual([
      "alpha.txt",
      "Beta.txt",
      "gamma.pdf",
    ]);
    expect(visibleRows(rows, "date", "").map((r) => r.entry.name)).toEqual([
      "alpha.txt",
      "gamma.pdf",
      "Beta.txt",
    ]);
    expect(visibleRows(rows, "name", "TXT").map((r) => r.entry.name)).toEqual(["alpha.txt", "Beta.txt"]);
  });
});
