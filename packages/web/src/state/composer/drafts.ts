/**
 * Drafts kept per room (and per thread) across reloads: the text, the
 * mentions typed into it and the reply/edit mode, in localStorage under a
 * key naming the user and the room, so two accounts in one browser never
 * see each other's drafts. Stored JSON is untrusted on the way back in.
 */
import type { KeyValueStorage } from "../../sdk";

/** A mention typed into the text: the label shown and what it points at. */
export interface TrackedMention {
  readonly label: string;
  /** A user id ("@...") or a room alias/id ("#..." / "!..."). */
  readonly target: string;
}

/** The mode a draft was in. */
export type DraftMode =
  { kind: "normal" } | { kind: "reply"; eventId: string } | { kind: "edit"; eventId: string };

/** What is kept of a composer. */
export interface Draft {
  readonly text: string;
  readonly mentions: readonly TrackedMention[];
  readonly mode: DraftMode;
}

/** The storage key of a draft. */
export function draftKey(userId: string, roomId: string, threadRootId?: string): string {
  return `lattice.draft:${userId}:${roomId}${threadRootId !== undefined ? `:${threadRootId}` : ""}`;
}

function isString(v: unknown): v is string {
  return typeof v === "string";
}

function parseMode(value: unknown): DraftMode {
  if (typeof value !== "object" || value === null) return { kind: "normal" };
  const { kind, eventId } = value as Record<string, unknown>;
  if ((kind === "reply" || kind === "edit") && isString(eventId)) return { kind, eventId };
  return { kind: "normal" };
}

/** Reads a draft; null when none (or unreadable). */
export function loadDraft(storage: KeyValueStorage, key: string): Draft | null {
  let raw: string | null;
  try {
    raw = storage.getItem(key);
  } catch {
    return null;
  }
  if (raw === null) return null;
  try {
    const data = JSON.parse(raw) as Record<string, unknown>;
    const text = isString(data["text"]) ? data["text"] : "";
    const mentions = Array.isArray(data["mentions"])
      ? data["mentions"].flatMap((m: unknown) => {
          const { label, target } = (typeof m === "object" && m !== null ? m : {}) as Record<string, unknown>;
          return isString(label) && isString(target) ? [{ label, target }] : [];
        })
      : [];
    return { text, mentions, mode: parseMode(data["mode"]) };
  } catch {
    return null;
  }
}

/** Saves a draft, or removes it when it is empty. Storage failures (quota, private mode) are ignored. */
export function saveDraft(storage: KeyValueStorage, key: string, draft: Draft): void {
  try {
    if (draft.text === "" && draft.mode.kind === "normal") storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(draft));
  } catch {
    // A draft is a convenience: never let storage break typing.
  }
}
