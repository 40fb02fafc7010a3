/**
 * Thread server support (SPEC §4): stable when the server speaks Matrix
 * v1.4 or later, experimental when it advertises MSC3440's unstable
 * features, none otherwise.
 */
import type { VersionsResponse } from "../../api/types/server";
import { hasUnstableFeature } from "../../api/versions";

/** How far a server supports threads. */
export type ThreadSupport = "none" | "experimental" | "stable";

/** The MSC3440 unstable feature flags. */
export const THREAD_UNSTABLE_FEATURES = ["org.matrix.msc3440.stable", "org.matrix.msc3440"] as const;

/** Whether a spec version string ("v1.4") is at least major.minor. */
function versionAtLeast(v: string, major: number, minor: number): boolean {
  const m = /^v(\d+)\.(\d+)$/.exec(v);
  if (m === null) return false;
  const a = Number(m[1]);
  const b = Number(m[2]);
  return a > major || (a === major && b >= minor);
}

/** The thread support of a server from its /versions answer (untrusted JSON). */
export function threadSupportOf(versions: VersionsResponse | undefined): ThreadSupport {
  if (typeof versions !== "object" || versions === null) return "none";
  const list: unknown = (versions as { versions?: unknown }).versions;
  if (Array.isArray(list) && list.some((v) => typeof v === "string" && versionAtLeast(v, 1, 4)))
    return "stable";
  if (THREAD_UNSTABLE_FEATURES.some((f) => hasUnstableFeature(versions, f))) return "experimental";
  return "none";
}
