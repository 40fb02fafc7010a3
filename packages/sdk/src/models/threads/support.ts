/**
 * Thread server support (SPEC §4): stable when the server speaks Matrix
 * v1.4 or later, experimental when it advertises MSC3440's unstable
 * features, none otherwise. Read, like every optional feature, by
 * sync/server-features.ts; this is the models' name for it.
 */
import type { VersionsResponse } from "../../api/types/server";
import { serverFeaturesOf } from "../../sync/server-features";
import type { ThreadSupport } from "../../sync/server-features";

export type { ThreadSupport };

/** The MSC3440 unstable feature flags. */
export const THREAD_UNSTABLE_FEATURES = ["org.matrix.msc3440.stable", "org.matrix.msc3440"] as const;

/** The thread support of a server from its /versions answer (untrusted JSON). */
export function threadSupportOf(versions: VersionsResponse | undefined): ThreadSupport {
  return serverFeaturesOf(versions).threads;
}
