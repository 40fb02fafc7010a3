/**
 * The calls view model of the signed-in client, provided by ClientShell so
 * the room header's call buttons reach it without threading it through
 * every room component.
 */
import { createContext } from "react";
import type { CallsViewModel } from "../../state/calls/CallsViewModel";

export const CallsContext = createContext<CallsViewModel | null>(null);
