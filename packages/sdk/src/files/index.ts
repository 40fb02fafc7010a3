/**
 * The file tree (MSC3089 over spaces): `client.files`. See
 * docs/architecture for the design and FilesService for the entry point.
 */
export { FilesService, isTreeState, folderName } from "./FilesService";
export type { FolderListing, FolderMember, FolderRef, ShareOptions } from "./FilesService";
export type { FileOps, FileVersion, UploadFileOptions } from "./file-ops";
export type { EntryProblem, FileDetails, FileEntry } from "./entries";
export { UNNAMED_FILE } from "./entries";
export { FileTreeError, FILE_TREE_MESSAGES } from "./errors";
export type { FileTreeErrorCode } from "./errors";
export { TREE_ROLES, roleOf, levelOfRole, whyCannotSetRole } from "./roles";
export type { TreeRole } from "./roles";
export type { FilesIo } from "./io";
export { MemoryUploadJournal } from "./uploads";
export type { UploadHandle, UploadJournal, UploadRecord, UploadStage, UploadRetryPolicy } from "./uploads";
export { IndexedDbUploadJournal } from "./IndexedDbUploadJournal";
export type { IndexedDbUploadJournalOptions } from "./IndexedDbUploadJournal";
export * from "./constants";
