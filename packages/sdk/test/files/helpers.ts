/** Shared set-up of the file tree unit tests: a fake server, users with their FilesService. */
import { FilesService } from "../../src/files/FilesService";
import { FakeIo, FakeServer } from "./fake-io";

export interface TestUser {
  io: FakeIo;
  files: FilesService;
  userId: string;
}

/** A fresh server and users on it. */
export function setup(...names: string[]): { server: FakeServer; users: TestUser[] } {
  const server = new FakeServer();
  const users = names.map((name) => {
    const io = new FakeIo(server, `@${name}:test`);
    return { io, files: new FilesService(io), userId: io.userId };
  });
  return { server, users };
}

/** Bytes of a text. */
export function bytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Text of bytes. */
export function text(data: Uint8Array): string {
  return new TextDecoder().decode(data);
}
