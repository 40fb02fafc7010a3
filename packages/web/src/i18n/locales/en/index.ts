/**
 * The English catalogue, complete: one namespace per feature. A feature adds
 * its file here and to this map.
 */
import { auth } from "./auth";
import { account } from "./account";
import { calls } from "./calls";
import { common } from "./common";
import { composer } from "./composer";
import { elementCall } from "./elementCall";
import { embedded } from "./embedded";
import { files } from "./files";
import { navigation } from "./navigation";
import { notifications } from "./notifications";
import { people } from "./people";
import { roomSettings } from "./roomSettings";
import { rooms } from "./rooms";
import { search } from "./search";
import { settings } from "./settings";
import { shell } from "./shell";
import { spaces } from "./spaces";
import { threads } from "./threads";
import { timeline } from "./timeline";
import { verification } from "./verification";
import { widgets } from "./widgets";

export const en = {
  auth,
  account,
  calls,
  common,
  composer,
  elementCall,
  embedded,
  files,
  navigation,
  notifications,
  people,
  roomSettings,
  rooms,
  search,
  settings,
  shell,
  spaces,
  threads,
  timeline,
  verification,
  widgets,
};
