/**
 * The app-level layer every running widget frame lives in (see
 * WidgetRegistry: an iframe that moved in the DOM would reload). Each frame
 * is drawn over its slot in the room layout, following the slot's box as
 * the page resizes or scrolls, and hidden while the slot has no size (the
 * room list on a phone). A frame without a slot is a widget that asked to
 * stay on screen after its room was left: it floats in a
 * picture-in-picture box with its name, origin, a way back to its room and
 * a close button. The layer also shows each session's prompts (capability
 * approval, OpenID consent) and the modal widgets it opens.
 */
import { useLayoutEffect, useState } from "react";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import { useObservable } from "../../state/useObservable";
import type { RunningWidget, WidgetRegistry } from "../../state/widgets/WidgetRegistry";
import type { WidgetSession } from "../../state/widgets/WidgetSession";
import { CapabilityDialog } from "./CapabilityDialog";
import { ModalWidgetDialog } from "./ModalWidgetDialog";
import { OpenIdDialog } from "./OpenIdDialog";
import { WidgetFrame } from "./WidgetFrame";
import styles from "./Widgets.module.css";

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The slot's box on screen, kept up to date while it is shown. */
function useSlotBox(slot: HTMLElement | null): Box | null {
  const [box, setBox] = useState<Box | null>(null);
  useLayoutEffect(() => {
    if (slot === null) {
      setBox(null);
      return;
    }
    let frame = 0;
    const measure = (): void => {
      frame = 0;
      const r = slot.getBoundingClientRect();
      setBox((old) =>
        old !== null &&
        old.left === r.left &&
        old.top === r.top &&
        old.width === r.width &&
        old.height === r.height
          ? old
          : { left: r.left, top: r.top, width: r.width, height: r.height },
      );
    };
    const schedule = (): void => {
      if (frame === 0) frame = requestAnimationFrame(measure);
    };
    measure();
    // The slot's own size, and anything above it that could move it (the page, the room pane).
    const resize = new ResizeObserver(schedule);
    resize.observe(slot);
    for (let el = slot.parentElement; el !== null; el = el.parentElement) resize.observe(el);
    window.addEventListener("resize", schedule);
    window.addEventListener("scroll", schedule, true);
    return () => {
      if (frame !== 0) cancelAnimationFrame(frame);
      resize.disconnect();
      window.removeEventListener("resize", schedule);
      window.removeEventListener("scroll", schedule, true);
    };
  }, [slot]);
  return box;
}

function FloatingWidget({
  running,
  registry,
  onOpenRoom,
}: {
  running: RunningWidget<WidgetSession>;
  registry: WidgetRegistry<WidgetSession>;
  onOpenRoom: (roomId: string) => void;
}): React.JSX.Element {
  const t = useT("widgets");
  const slot = useObservable(running.slot);
  const box = useSlotBox(slot);
  const pip = slot === null;
  const hidden = !pip && (box === null || box.width === 0 || box.height === 0);
  const style: React.CSSProperties | undefined =
    pip || box === null ? undefined : { left: box.left, top: box.top, width: box.width, height: box.height };
  return (
    <div
      className={`${styles.floating} ${pip ? styles.pip : ""} ${hidden ? styles.hiddenFrame : ""}`}
      style={style}
      data-widget-frame={running.widget.id}
      data-pip={pip ? "true" : undefined}
      role={pip ? "region" : undefined}
      aria-label={pip ? t("pip_label", { name: running.widget.label }) : undefined}
    >
      {/* The frame comes first and stays first: the bar below is added and removed beside it. */}
      <WidgetFrame
        session={running.session}
        widgetId={running.widget.id}
        label={running.widget.label}
        isCall={running.widget.isCall}
        url={running.url}
      />
      {pip && (
        <div className={styles.pipBar}>
          <span className={styles.pipName} title={running.session.origin}>
            {running.widget.label}
          </span>
          <Button variant="ghost" size="sm" onClick={() => onOpenRoom(running.roomId)}>
            {t("back_to_room")}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            aria-label={t("close")}
            onClick={() => registry.stop(running.roomId, running.widget.id)}
          >
            ✕
          </Button>
        </div>
      )}
    </div>
  );
}

function SessionPrompts({ running }: { running: RunningWidget<WidgetSession> }): React.JSX.Element {
  return (
    <>
      <CapabilityDialog session={running.session} name={running.widget.label} />
      <OpenIdDialog session={running.session} name={running.widget.label} />
      <ModalWidgetDialog opener={running.session} roomId={running.roomId} />
    </>
  );
}

/** Every running widget of the app, over its slot or in picture-in-picture. */
export function WidgetLayer({
  registry,
  onOpenRoom,
}: {
  registry: WidgetRegistry<WidgetSession>;
  onOpenRoom: (roomId: string) => void;
}): React.JSX.Element {
  const running = useObservable(registry.running);
  return (
    <div className={styles.layer}>
      {running.map((r) => (
        <FloatingWidget key={r.key} running={r} registry={registry} onOpenRoom={onOpenRoom} />
      ))}
      {running.map((r) => (
        <SessionPrompts key={r.key} running={r} />
      ))}
    </div>
  );
}
