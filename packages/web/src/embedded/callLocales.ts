/**
 * The embedded call view's namespace, added to the catalogue when the view
 * loads (EmbeddedViewModel imports this module with the view's code).
 */
import { i18n } from "../i18n/i18n";
import { calls } from "../i18n/locales/en/calls";

i18n.addResourceBundle("en", "calls", calls, true, true);
