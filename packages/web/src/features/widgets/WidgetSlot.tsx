/**
 * Where a room widget is shown in the room's layout. A trusted widget (or
 * one the user clicked to load) gets its frame drawn over this box by the
 * app's widget layer; an untrusted one shows who added it, the origin it
 * runs at, and a "Load widget" button first. The widget's origin is always
 * in the slot's title bar, with the layout buttons.
 */
import { useEffect, useRef } from "react";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { RoomWidget } from "../../state/widgets/roomWidgets";
import type { RoomWidgetsViewModel } from "../../state/widgets/RoomWidgetsViewModel";
import type { WidgetContainer } from "../../state/widgets/WidgetRegistry";
import { useObservable } from "../../state/useObservable";
import styles from "./Widgets.module.css";

/** The box the frame is drawn over; registers with the registry while mounted. */
function FrameBox({ vm, widget }: { vm: RoomWidgetsViewModel; widget: RoomWidget }): React.JSX.Element {
  const ref = useRef<HTMLDivElement>(null);
  const url = vm.urlOf(widget);
  useEffect(() => {
    const el = ref.current;
    if (el === null) return;
    return vm.registry.show(vm.roomId, widget, url, el);
  }, [vm, widget, url]);
  return <div ref={ref} className={styles.frameBox} data-widget-slot={widget.id} />;
}

function ClickToLoad({ vm, widget }: { vm: RoomWidgetsViewModel; widget: RoomWidget }): React.JSX.Element {
  const t = useT("widgets");
  const name = vm.nameOf(widget.sender);
  return (
    <div className={styles.untrusted} data-testid="widget-untrusted">
      <p className={styles.untrustedTitle}>{t("untrusted_title", { name: widget.label, sender: name })}</p>
      <p>{t("untrusted_body", { origin: widget.origin })}</p>
      <Button onClick={() => vm.allowLoad(widget)}>{t("load")}</Button>
    </div>
  );
}

const MOVES: readonly { to: WidgetContainer; key: string }[] = [
  { to: "top", key: "show_top" },
  { to: "right", key: "show_right" },
  { to: "maximised", key: "show_maximised" },
  { to: "pip", key: "show_pip" },
  { to: "closed", key: "show_closed" },
];

/** One widget in its container: a title bar (name, origin, layout buttons) over its frame. */
export function WidgetSlot({
  vm,
  widget,
  container,
}: {
  vm: RoomWidgetsViewModel;
  widget: RoomWidget;
  container: WidgetContainer;
}): React.JSX.Element {
  const t = useT("widgets");
  // Re-renders after a load click.
  useObservable(vm.allowed);
  const mayLoad = vm.mayLoad(widget);
  return (
    <section
      className={styles.slot}
      aria-label={widget.label}
      data-widget={widget.id}
      data-container={container}
    >
      <header className={styles.slotBar}>
        <span className={styles.slotName}>{widget.label}</span>
        <span
          className={styles.slotOrigin}
          data-testid="widget-origin"
          title={t("origin", { origin: widget.origin })}
        >
          {widget.origin}
        </span>
        <span className={styles.slotMoves}>
          {MOVES.filter((m) => m.to !== container).map((m) => (
            <Button key={m.to} variant="ghost" size="sm" onClick={() => vm.place(widget.id, m.to)}>
              {m.to === "top" && container === "maximised" ? t("restore") : t(m.key)}
            </Button>
          ))}
        </span>
      </header>
      {mayLoad ? <FrameBox vm={vm} widget={widget} /> : <ClickToLoad vm={vm} widget={widget} />}
    </section>
  );
}
