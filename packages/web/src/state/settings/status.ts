/**
 * The result line of a settings section: busy while a write runs, then
 * "saved" or the error message. `run` wraps a write so every section
 * reports the same way and never throws into a click handler.
 */
import { t } from "../../i18n/i18n";
import type { ObservableValue } from "../observables";
import { PromptCancelled } from "./PasswordPrompt";

/** A section's last write. */
export interface WriteStatus {
  readonly busy: boolean;
  readonly error: string | null;
  readonly saved: boolean;
}

export const IDLE: WriteStatus = { busy: false, error: null, saved: false };

/** The message of an error for the user. */
export function messageOf(err: unknown): string {
  if (err instanceof Error && err.message !== "") return err.message;
  return t("settings", "error_generic");
}

/** Runs a write, reporting busy/saved/error into `status`; resolves to whether it succeeded. */
export async function runWrite(
  status: ObservableValue<WriteStatus>,
  write: () => Promise<unknown>,
): Promise<boolean> {
  status.set({ busy: true, error: null, saved: false });
  try {
    await write();
    status.set({ busy: false, error: null, saved: true });
    return true;
  } catch (err) {
    status.set({ busy: false, error: err instanceof PromptCancelled ? null : messageOf(err), saved: false });
    return false;
  }
}
