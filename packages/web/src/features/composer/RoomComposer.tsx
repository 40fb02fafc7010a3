/**
 * The room's composer as RoomView mounts it (one line): the room view
 * model's ComposerViewModel, and files dropped anywhere on the room
 * (the room's section gets a "drop files" overlay while dragging).
 */
import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { useT } from "../../i18n/useT";
import { composerOf, setMediaProbe } from "../../state/ComposerForRoom";
import type { ComposerRoomHost } from "../../state/ComposerForRoom";
import { useObservable } from "../../state/useObservable";
import { Composer, filesOf } from "./Composer";
import styles from "./Composer.module.css";
import { browserMediaProbe } from "./mediaProbe";
import { StickerButton } from "../widgets/StickerButton";

setMediaProbe(browserMediaProbe);

function hasFiles(e: DragEvent): boolean {
  return Array.from(e.dataTransfer?.types ?? []).includes("Files");
}

export function RoomComposer({ room }: { room: ComposerRoomHost }): React.JSX.Element {
  const t = useT("composer");
  const vm = composerOf(room);
  const snapshot = useObservable(room.room);
  const anchor = useRef<HTMLDivElement>(null);
  const [target, setTarget] = useState<HTMLElement | null>(null);
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    const area = anchor.current?.closest("section") ?? anchor.current?.parentElement ?? null;
    if (area === null) return;
    setTarget(area);
    if (getComputedStyle(area).position === "static") area.style.position = "relative";
    let depth = 0;
    const enter = (e: DragEvent): void => {
      if (!hasFiles(e)) return;
      depth++;
      setDragging(true);
    };
    const over = (e: DragEvent): void => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = "copy";
    };
    const leave = (): void => {
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (e: DragEvent): void => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      vm.uploads.stage(filesOf(e.dataTransfer?.files));
    };
    area.addEventListener("dragenter", enter);
    area.addEventListener("dragover", over);
    area.addEventListener("dragleave", leave);
    area.addEventListener("drop", drop);
    return () => {
      area.removeEventListener("dragenter", enter);
      area.removeEventListener("dragover", over);
      area.removeEventListener("dragleave", leave);
      area.removeEventListener("drop", drop);
    };
  }, [vm]);

  return (
    <div ref={anchor}>
      <Composer
        vm={vm}
        roomName={snapshot.name.name}
        encrypted={snapshot.isEncrypted}
        tools={<StickerButton roomId={snapshot.roomId} />}
      />
      {dragging &&
        target !== null &&
        createPortal(
          <div className={styles.dropOverlay} data-testid="drop-overlay">
            {t("dropFiles", { room: snapshot.name.name })}
          </div>,
          target,
        )}
    </div>
  );
}
