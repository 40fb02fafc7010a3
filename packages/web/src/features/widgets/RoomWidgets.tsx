/**
 * The room's widgets in its layout: the ones pinned on top (above the
 * timeline), the maximised one (it takes the timeline's place until
 * restored), the ones in the side panel and the ones floating in the
 * room's picture-in-picture corner. A widget with no layout yet is pinned
 * on top. The room pane places these pieces; each returns nothing when it
 * has no widget to show.
 */
import { useContext } from "react";
import { ObservableValue } from "../../state/observables";
import type { RoomViewModel } from "../../state/RoomViewModel";
import { useObservable } from "../../state/useObservable";
import type { RoomWidget } from "../../state/widgets/roomWidgets";
import type { RoomWidgetsViewModel } from "../../state/widgets/RoomWidgetsViewModel";
import type { WidgetContainer } from "../../state/widgets/WidgetRegistry";
import { roomWidgetsOf, widgetsOf } from "../../state/widgets/widgets";
import { WidgetsContext } from "./WidgetsContext";
import { WidgetSlot } from "./WidgetSlot";
import styles from "./Widgets.module.css";

/** The room's widgets view model, when the app hosts widgets. */
export function useRoomWidgets(room: RoomViewModel): RoomWidgetsViewModel | null {
  const client = useContext(WidgetsContext);
  return client === null ? null : roomWidgetsOf(widgetsOf(client), room);
}

/** The widgets of the room in `container`. */
function useIn(vm: RoomWidgetsViewModel, container: WidgetContainer): RoomWidget[] {
  const widgets = useObservable(vm.widgets);
  const layout = useObservable(vm.layout);
  return widgets.filter((w) => (layout.get(w.id) ?? "top") === container);
}

function Container({
  vm,
  container,
  className,
  label,
}: {
  vm: RoomWidgetsViewModel;
  container: WidgetContainer;
  className: string | undefined;
  label?: string;
}): React.JSX.Element | null {
  const shown = useIn(vm, container);
  if (shown.length === 0) return null;
  return (
    <div className={className} data-widget-container={container} aria-label={label}>
      {shown.map((w) => (
        <WidgetSlot key={w.id} vm={vm} widget={w} container={container} />
      ))}
    </div>
  );
}

/** Widgets pinned above the timeline. */
function PinnedWidgets({ vm }: { vm: RoomWidgetsViewModel }): React.JSX.Element | null {
  return <Container vm={vm} container="top" className={styles.pinned} />;
}

/** The maximised widget, if any (the room pane shows it instead of the timeline). */
function useMaximised(vm: RoomWidgetsViewModel | null): boolean {
  const widgets = useObservable(vm?.widgets ?? EMPTY);
  const layout = useObservable(vm?.layout ?? NO_LAYOUT);
  return widgets.some((w) => layout.get(w.id) === "maximised");
}

/** The maximised widget, filling the room's column. */
function MaximisedWidget({ vm }: { vm: RoomWidgetsViewModel }): React.JSX.Element | null {
  return <Container vm={vm} container="maximised" className={styles.maximised} />;
}

/** Widgets in the side panel, beside the timeline. */
function SideWidgets({ vm }: { vm: RoomWidgetsViewModel }): React.JSX.Element | null {
  return <Container vm={vm} container="right" className={styles.side} />;
}

/** Widgets in the room's picture-in-picture corner. */
function RoomPipWidgets({ vm }: { vm: RoomWidgetsViewModel }): React.JSX.Element | null {
  return <Container vm={vm} container="pip" className={styles.roomPip} />;
}

// Stand-ins for a room without a widget host, so the hooks run the same way.
const EMPTY = new ObservableValue<readonly RoomWidget[]>([]);
const NO_LAYOUT = new ObservableValue<ReadonlyMap<string, WidgetContainer>>(new Map());

/** Above the timeline: the pinned widgets, or the maximised one (then the timeline is not shown). */
export function RoomWidgetsTop({ room }: { room: RoomViewModel }): React.JSX.Element | null {
  const vm = useRoomWidgets(room);
  if (vm === null) return null;
  return (
    <>
      <MaximisedWidget vm={vm} />
      <PinnedWidgets vm={vm} />
      <RoomPipWidgets vm={vm} />
    </>
  );
}

/** Whether a widget of the room is maximised (the room pane then hides its timeline). */
export function useRoomMaximised(room: RoomViewModel): boolean {
  return useMaximised(useRoomWidgets(room));
}

/** Beside the timeline: the widgets in the side panel. */
export function RoomWidgetsSide({ room }: { room: RoomViewModel }): React.JSX.Element | null {
  const vm = useRoomWidgets(room);
  return vm === null ? null : <SideWidgets vm={vm} />;
}
