/**
 * The wire names and limits of the file tree (MSC3088 room purposes,
 * MSC3089 tree spaces), as matrix-js-sdk writes them, so a tree made by
 * either client opens in the other. The limits bound every walk: a hostile
 * or broken tree (a folder cycle, a huge listing, a long version chain) is
 * cut off with a log line instead of being walked forever.
 */
import type { UnstableName } from "../api/unstable";

/** MSC3088: the state event type that gives a room a purpose. */
export const ROOM_PURPOSE: UnstableName = { msc: 3088, stable: null, unstable: "org.matrix.msc3088.purpose" };

/** MSC3088: the field of a purpose state that switches it on. */
export const PURPOSE_ENABLED: UnstableName = {
  msc: 3088,
  stable: null,
  unstable: "org.matrix.msc3088.enabled",
};

/** MSC3089: the purpose state key of a file tree room. */
export const TREE_SUBTYPE: UnstableName = {
  msc: 3089,
  stable: null,
  unstable: "org.matrix.msc3089.data_tree",
};

/** MSC3089: the marker field on a file event that it is a leaf of a tree. */
export const FILE_LEAF: UnstableName = { msc: 3089, stable: null, unstable: "org.matrix.msc3089.leaf" };

/** MSC3089: the state event (state key = file event id) that indexes a file. */
export const FILE_BRANCH: UnstableName = { msc: 3089, stable: null, unstable: "org.matrix.msc3089.branch" };

/** The level a tree's creator gets (SPEC §6: "a new file-tree space room gives its creator power level 100"). */
export const TREE_CREATOR_LEVEL = 100;

/**
 * The power levels of a new tree, without `users` (the creator is added by
 * the caller): owners invite, kick, ban and change power levels; editors
 * (events_default) send files and state; viewers (users_default) read.
 */
export const TREE_POWER_LEVELS = {
  invite: 100,
  kick: 100,
  ban: 100,
  redact: 50,
  state_default: 50,
  events_default: 50,
  users_default: 0,
  events: {
    "m.room.power_levels": 100,
    "m.room.history_visibility": 100,
    "m.room.tombstone": 100,
    "m.room.encryption": 100,
    "m.room.name": 50,
    "m.room.message": 50,
    "m.room.encrypted": 50,
    "m.sticker": 50,
  },
} as const;

/** How deep a folder walk goes (sharing with subfolders, recursive delete, cycle checks). */
export const MAX_FOLDER_DEPTH = 32;
/** How many folders one walk visits at most. */
export const MAX_FOLDERS_WALKED = 2_000;
/** How many files one folder lists at most; the rest are left out with a log line. */
export const MAX_FILES_LISTED = 10_000;
/** How many versions a history walk follows at most. */
export const MAX_VERSIONS = 500;
/** The highest version number taken as true; a larger one is forged. */
export const MAX_VERSION_NUMBER = 1_000_000;
/** The longest file or folder name kept. */
export const MAX_NAME_LENGTH = 255;
/** How long a send into a just-created folder waits for sync to know the room. */
export const ROOM_KNOWN_TIMEOUT_MS = 30_000;
