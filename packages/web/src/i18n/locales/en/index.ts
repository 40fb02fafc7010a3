/**
 * The English catalogue, complete: one namespace per feature. A feature adds
 * its file here and to this map.
 */
import { common } from "./common";
import { threads } from "./threads";
import { composer } from "./composer";

export const en = { common, composer, threads };
