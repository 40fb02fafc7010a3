/**
 * The client's Element Call (state/widgets/ElementCalls), provided by
 * ClientShell so the room header's group call button reaches it.
 */
import { createContext } from "react";
import type { ElementCalls } from "../../state/widgets/ElementCalls";

export const ElementCallContext = createContext<ElementCalls | null>(null);
