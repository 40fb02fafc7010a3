/**
 * Resumes the file uploads a reload cut off, without waiting for the Files
 * view to open: the shell imports this module lazily after it mounts, so
 * the first screen carries none of it. The Files view, when opened, shows
 * the same uploads (they keep running under the SDK's uploader).
 */
import { IndexedDbUploadJournal } from "../../sdk";
import type { FilesService } from "../../sdk";

/** The account's upload journal in IndexedDB (the Files view opens the same one). */
export function uploadJournal(userId: string): IndexedDbUploadJournal {
  return new IndexedDbUploadJournal({ indexedDB: window.indexedDB, dbName: `lattice-uploads:${userId}` });
}

/** Points the uploader at the journal and takes up what it holds; resolves with how many resumed. */
export async function resumeUploads(client: {
  userId: string;
  /** The SDK's file service, loaded on first use (ADR 0038). */
  files(): Promise<FilesService>;
}): Promise<number> {
  const files = await client.files();
  files.fileOps.uploads.useJournal(uploadJournal(client.userId));
  const handles = await files.fileOps.uploads.resume();
  return handles.length;
}
