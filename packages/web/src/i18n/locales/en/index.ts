/**
 * The English catalogue, complete: one namespace per feature. A feature adds
 * its file here and to this map.
 */
import { common } from "./common";
import { composer } from "./composer";
import { notifications } from "./notifications";
import { people } from "./people";
import { roomSettings } from "./roomSettings";
import { rooms } from "./rooms";
import { search } from "./search";
import { settings } from "./settings";
import { threads } from "./threads";
import { timeline } from "./timeline";
import { verification } from "./verification";

export const en = {
  common,
  composer,
  notifications,
  people,
  roomSettings,
  rooms,
  search,
  settings,
  threads,
  timeline,
  verification,
};
