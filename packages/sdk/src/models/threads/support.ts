/**
 * Thread server support (SPEC §4): stable when the server speaks Matrix
 * v1.4 or later, experimental when it advertises MSC3440's unstable
 * features, none otherwise. Read, like every optional feature, by
 * sync/server-features.ts (`serverFeaturesOf(versions).threads`); the
 * client hands it to ThreadList (`support`), which uses /threads only on
 * stable support.
 */
import type { ThreadSupport } from "../../sync/server-features";

export type { ThreadSupport };

/** The MSC3440 unstable feature flags. */
export const THREAD_UNSTABLE_FEATURES = ["org.matrix.msc3440.stable", "org.matrix.msc3440"] as const;
