/**
 * The English catalogue, complete: one namespace per feature. A feature adds
 * its file here and to this map.
 */
import { common } from "./common";
import { composer } from "./composer";
import { people } from "./people";
import { roomSettings } from "./roomSettings";
import { rooms } from "./rooms";
import { threads } from "./threads";
import { timeline } from "./timeline";

export const en = { common, composer, people, roomSettings, rooms, threads, timeline };
