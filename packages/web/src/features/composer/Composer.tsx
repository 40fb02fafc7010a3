/**
 * The composer: an auto-growing textarea (Enter sends, Shift+Enter breaks
 * the line, Up in an empty composer edits the last message, Escape leaves
 * reply/edit mode) that is an ARIA combobox over the suggestion list, with
 * the reply/edit banner above, the attach and emoji buttons, uploads in
 * flight and errors below. Files come by the button, by paste, or by drop
 * (RoomComposer wires the drop onto the whole room). Mentions show as
 * pills drawn behind the text (PillBackdrop) and go as one unit under
 * Backspace and Delete; the textarea stays the one input, so typing, IME,
 * undo and screen readers work as in any text field.
 */
import { lazy, Suspense, useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import type { ClipboardEvent, KeyboardEvent } from "react";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { ComposerViewModel } from "../../state/ComposerViewModel";
import { useObservable } from "../../state/useObservable";
import { Autocomplete, optionId } from "./Autocomplete";
import styles from "./Composer.module.css";
import { PlusIcon, SendIcon, SmileIcon } from "./icons";
import { ModeBanner } from "./ModeBanner";
import { PillBackdrop } from "./PillBackdrop";
import { UploadList } from "./UploadList";

const EmojiPicker = lazy(() => import("./EmojiPicker"));
// The commands' help and notices, and the upload dialog, load when they first have something to show.
const CommandPanel = lazy(() => import("./CommandPanel").then((m) => ({ default: m.CommandPanel })));
const UploadDialog = lazy(() => import("./UploadDialog").then((m) => ({ default: m.UploadDialog })));

const MAX_HEIGHT = 240;

/** Files of a paste or drop, as the view model takes them. */
export function filesOf(
  list: FileList | null | undefined,
): Array<{ name: string; type: string; data: Blob }> {
  return Array.from(list ?? []).map((f) => ({ name: f.name, type: f.type, data: f }));
}

export interface ComposerProps {
  vm: ComposerViewModel;
  /** For the placeholder ("Message Lattice Lounge…"). */
  roomName: string;
  encrypted?: boolean;
  autoFocus?: boolean;
  /** More buttons beside the emoji button (the room's sticker picker). */
  tools?: React.ReactNode;
}

export function Composer({
  vm,
  roomName,
  encrypted = false,
  autoFocus = true,
  tools,
}: ComposerProps): React.JSX.Element {
  const t = useT("composer");
  const text = useObservable(vm.text);
  const mode = useObservable(vm.mode);
  const completion = useObservable(vm.completion);
  const error = useObservable(vm.error);
  const caretRequest = useObservable(vm.caretRequest);
  const pills = useObservable(vm.pills);
  const panel = useObservable(vm.panel);
  const notice = useObservable(vm.notice);
  const staged = useObservable(vm.uploads.staged);
  const ref = useRef<HTMLTextAreaElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const [picker, setPicker] = useState(false);
  const listId = useId();

  // Grow with the text up to MAX_HEIGHT, then scroll.
  useLayoutEffect(() => {
    const el = ref.current;
    if (el === null) return;
    el.style.height = "auto";
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT)}px`;
  }, [text]);

  // Programmatic changes (completion, emoji, edit) put the caret where the view model says.
  useLayoutEffect(() => {
    const el = ref.current;
    if (el === null || caretRequest === null) return;
    el.focus();
    el.setSelectionRange(caretRequest.at, caretRequest.at);
  }, [caretRequest]);

  // Reply and edit take the focus to the text.
  useEffect(() => {
    if (mode.kind !== "normal") ref.current?.focus();
  }, [mode]);

  useEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, [autoFocus, vm]);

  // Keys read the view model's current state, not this render's: on a busy machine a key can
  // arrive before React has rendered the last change (a list just closed, the text just cleared).
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (e.nativeEvent.isComposing) return;
    const current = vm.completion.getSnapshot();
    const open = current !== null && current.items.length > 0;
    if (open && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
      e.preventDefault();
      vm.moveCompletion(e.key === "ArrowDown" ? 1 : -1);
    } else if (open && (e.key === "Enter" || e.key === "Tab") && !e.shiftKey) {
      e.preventDefault();
      vm.acceptCompletion();
    } else if (e.key === "Escape") {
      if (picker) setPicker(false);
      else if (vm.cancel()) e.preventDefault();
    } else if (
      (e.key === "Backspace" || e.key === "Delete") &&
      e.currentTarget.selectionStart === e.currentTarget.selectionEnd &&
      vm.deletePill(e.key)
    ) {
      // A mention is one unit: the whole pill went.
      e.preventDefault();
    } else if (e.key === "ArrowUp" && vm.text.getSnapshot() === "" && !e.shiftKey) {
      if (vm.editLast()) e.preventDefault();
    } else if (e.key === "Enter" && !e.shiftKey) {
      e.preventDefault();
      void vm.send();
    }
  };

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>): void => {
    const files = filesOf(e.clipboardData.files);
    if (files.length === 0) return;
    e.preventDefault();
    vm.uploads.stage(files);
  };

  const placeholder =
    vm.threadRootId !== undefined
      ? t("placeholderThread")
      : encrypted
        ? t("placeholderEncrypted")
        : t("placeholder", { room: roomName });
  const expanded = completion !== null && completion.items.length > 0;

  return (
    <div className={styles.composer} data-testid="composer">
      <ModeBanner mode={mode} onCancel={() => vm.cancel()} />
      {expanded && (
        <Autocomplete id={listId} completion={completion} onPick={(i) => vm.acceptCompletion(i)} />
      )}
      {picker && (
        <Suspense fallback={<div className={styles.pickerLoading}>{t("emojiLoading")}</div>}>
          <EmojiPicker
            onPick={(emoji) => vm.insertEmoji(emoji)}
            onClose={() => {
              setPicker(false);
              ref.current?.focus();
            }}
          />
        </Suspense>
      )}
      <div className={styles.row} data-mode={mode.kind}>
        {vm.uploads.enabled && (
          <>
            <Button
              variant="ghost"
              size="sm"
              className={styles.iconButton}
              aria-label={t("attach")}
              title={t("attach")}
              onClick={() => fileInput.current?.click()}
            >
              <PlusIcon />
            </Button>
            <input
              ref={fileInput}
              type="file"
              multiple
              hidden
              data-testid="composer-file"
              onChange={(e) => {
                vm.uploads.stage(filesOf(e.currentTarget.files));
                e.currentTarget.value = "";
              }}
            />
          </>
        )}
        <div className={styles.field}>
          <PillBackdrop ref={backdrop} text={text} pills={pills} />
          <textarea
            ref={ref}
            className={styles.input}
            rows={1}
            value={text}
            placeholder={placeholder}
            aria-label={t("label")}
            role="combobox"
            aria-autocomplete="list"
            aria-expanded={expanded}
            aria-controls={expanded ? listId : undefined}
            aria-activedescendant={expanded ? optionId(listId, completion.active) : undefined}
            aria-invalid={error !== null || undefined}
            onChange={(e) => vm.setText(e.target.value, e.target.selectionStart)}
            onSelect={(e) => vm.setCaret(e.currentTarget.selectionStart)}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
            onFocus={() => vm.preload()}
            onBlur={() => vm.blur()}
            onScroll={(e) => {
              if (backdrop.current !== null) backdrop.current.scrollTop = e.currentTarget.scrollTop;
            }}
          />
        </div>
        {tools}
        <Button
          variant="ghost"
          size="sm"
          className={styles.iconButton}
          aria-label={t("emoji")}
          title={t("emoji")}
          aria-expanded={picker}
          onClick={() => setPicker((p) => !p)}
        >
          <SmileIcon />
        </Button>
        <Button
          size="sm"
          className={styles.send}
          aria-label={t("send")}
          disabled={text.trim() === ""}
          onClick={() => void vm.send()}
        >
          <SendIcon />
        </Button>
      </div>
      {mode.kind === "edit" && <p className={styles.hint}>{t("editHint")}</p>}
      {error !== null && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      <Suspense fallback={null}>
        {(panel !== null || notice !== null) && <CommandPanel vm={vm} />}
        {staged.length > 0 && <UploadDialog vm={vm} />}
      </Suspense>
      <UploadList uploads={vm.uploads} />
    </div>
  );
}
