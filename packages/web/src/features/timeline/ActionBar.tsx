/**
 * The message action bar, shown on hover and on keyboard focus inside a
 * message: react (a quick-reaction row and "More reactions", the full
 * searchable picker in ReactionPicker.tsx, loaded lazily), reply, thread, edit (own
 * messages), delete (when the power levels allow), and a "more" menu with
 * copy link, view source, edit history and report. Buttons whose callback
 * is missing are not shown. The icons are inline SVG (./icons), so the bar
 * draws the same on a system without an emoji or symbol font.
 */
import { useRef, useState } from "react";
import { useT } from "../../i18n/useT";
import type { TimelineItem } from "../../state/TimelineViewModel";
import { EditIcon, MoreIcon, MoreReactionsIcon, ReactIcon, ReplyIcon, ThreadIcon, TrashIcon } from "./icons";
import styles from "./Message.module.css";
import type { MessageDialogKind } from "./MessageDialogs";
import { useTimeline } from "./TimelineContext";
import { ReactionPicker } from "./ReactionPicker";

/** The quick reactions offered in the bar. */
const QUICK_REACTIONS = ["👍", "❤️", "😂", "🎉", "😮", "😢"] as const;

function ActionButton({
  label,
  icon,
  onClick,
  pressed,
  buttonRef,
}: {
  label: string;
  icon: React.JSX.Element;
  onClick: () => void;
  pressed?: boolean;
  buttonRef?: React.Ref<HTMLButtonElement>;
}): React.JSX.Element {
  return (
    <button
      ref={buttonRef}
      type="button"
      className={styles.action}
      aria-label={label}
      title={label}
      onClick={onClick}
      {...(pressed !== undefined ? { "aria-expanded": pressed } : {})}
    >
      {icon}
    </button>
  );
}

export function ActionBar({
  item,
  onDialog,
}: {
  item: TimelineItem;
  onDialog: (kind: MessageDialogKind) => void;
}): React.JSX.Element {
  const t = useT("timeline");
  const { vm, onReply, onEdit, onOpenThread, onReport } = useTimeline();
  const [panel, setPanel] = useState<"react" | "picker" | "more" | null>(null);
  const [copied, setCopied] = useState(false);
  const reactButton = useRef<HTMLButtonElement>(null);
  const toggle = (p: "react" | "more"): void =>
    setPanel((cur) => (cur === p || (p === "react" && cur === "picker") ? null : p));
  const canEdit = onEdit !== undefined && vm.actions.canEdit(item);
  const canDelete = vm.actions.canRedact(item);
  return (
    <div
      className={`${styles.actionBar} ${panel !== null ? styles.actionBarOpen : ""}`}
      role="toolbar"
      aria-label={t("actions")}
    >
      {panel === "react" && (
        <div className={styles.quickReactions} role="group" aria-label={t("quick_reactions")}>
          {QUICK_REACTIONS.map((key) => (
            <button
              key={key}
              type="button"
              className={`${styles.action} ${vm.actions.hasReacted(item, key) ? styles.actionOn : ""}`}
              aria-label={key}
              aria-pressed={vm.actions.hasReacted(item, key)}
              onClick={() => {
                vm.actions.toggleReaction(item.eventId, key);
                setPanel(null);
              }}
            >
              {key}
            </button>
          ))}
          <button
            type="button"
            className={styles.action}
            aria-label={t("more_reactions")}
            title={t("more_reactions")}
            aria-haspopup="dialog"
            onClick={() => setPanel("picker")}
          >
            <MoreReactionsIcon />
          </button>
        </div>
      )}
      {panel === "picker" && (
        <ReactionPicker item={item} anchor={reactButton.current} onClose={() => setPanel(null)} />
      )}
      {panel === "more" && (
        <div className={styles.menu} role="menu">
          <button
            type="button"
            role="menuitem"
            className={styles.menuItem}
            onClick={() => {
              void navigator.clipboard
                ?.writeText(vm.actions.linkTo(item.eventId))
                .then(() => setCopied(true));
            }}
          >
            {copied ? t("link_copied") : t("copy_link")}
          </button>
          <button
            type="button"
            role="menuitem"
            className={styles.menuItem}
            onClick={() => onDialog("source")}
          >
            {t("view_source")}
          </button>
          {item.edited && (
            <button
              type="button"
              role="menuitem"
              className={styles.menuItem}
              onClick={() => onDialog("history")}
            >
              {t("history_title")}
            </button>
          )}
          {onReport !== undefined && item.sender !== vm.userId && (
            <button
              type="button"
              role="menuitem"
              className={`${styles.menuItem} ${styles.menuDanger}`}
              onClick={() => onReport(item.eventId)}
            >
              {t("report")}
            </button>
          )}
        </div>
      )}
      {!item.redacted && (
        <ActionButton
          label={t("react")}
          icon={<ReactIcon />}
          onClick={() => toggle("react")}
          pressed={panel === "react" || panel === "picker"}
          buttonRef={reactButton}
        />
      )}
      {!item.redacted && onReply !== undefined && (
        <ActionButton label={t("reply")} icon={<ReplyIcon />} onClick={() => onReply(item.eventId)} />
      )}
      {!item.redacted && onOpenThread !== undefined && (
        <ActionButton label={t("thread")} icon={<ThreadIcon />} onClick={() => onOpenThread(item.eventId)} />
      )}
      {canEdit && (
        <ActionButton label={t("edit")} icon={<EditIcon />} onClick={() => onEdit?.(item.eventId)} />
      )}
      {canDelete && (
        <ActionButton label={t("delete")} icon={<TrashIcon />} onClick={() => onDialog("delete")} />
      )}
      <ActionButton
        label={t("more")}
        icon={<MoreIcon />}
        onClick={() => toggle("more")}
        pressed={panel === "more"}
      />
    </div>
  );
}
