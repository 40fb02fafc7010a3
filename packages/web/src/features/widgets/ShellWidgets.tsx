/**
 * The shell's widget layer for a signed-in client (its own chunk, loaded
 * once a room has been opened): every running widget frame, over its slot
 * or in picture-in-picture, and their prompts.
 */
import type { ClientViewModel } from "../../state/ClientViewModel";
import { widgetsOf } from "../../state/widgets/widgets";
import { WidgetLayer } from "./WidgetLayer";

export function ShellWidgets({ client }: { client: ClientViewModel }): React.JSX.Element {
  return (
    <WidgetLayer registry={widgetsOf(client).registry} onOpenRoom={(id) => client.roomList.select(id)} />
  );
}
