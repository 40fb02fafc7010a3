/**
 * The English catalogue, complete: one namespace per feature. A feature adds
 * its file here and to this map.
 */
import { common } from "./common";

export const en = { common };
