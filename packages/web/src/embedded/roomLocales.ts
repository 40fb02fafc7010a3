/**
 * The embedded room view's namespaces, added to the catalogue when the
 * view loads (EmbeddedViewModel imports this module with the view's
 * code): the timeline (with its call events), the composer and its
 * commands, rooms (errors, commands) and widgets (stickers).
 */
import { i18n } from "../i18n/i18n";
import { composer } from "../i18n/locales/en/composer";
import { rooms } from "../i18n/locales/en/rooms";
import { timeline } from "../i18n/locales/en/timeline";
import { widgets } from "../i18n/locales/en/widgets";

for (const [ns, table] of Object.entries({ composer, rooms, timeline, widgets }))
  i18n.addResourceBundle("en", ns, table, true, true);
