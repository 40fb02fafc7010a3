/**
 * The signed-in client whose widget host (state/widgets/widgets.ts) the
 * room views use: the shell provides it, so the room pane reaches its
 * widgets without the client view model being threaded through every
 * component, and the widget code stays out of the first screen's chunk.
 */
import { createContext } from "react";
import type { ClientViewModel } from "../../state/ClientViewModel";

export const WidgetsContext = createContext<ClientViewModel | null>(null);
