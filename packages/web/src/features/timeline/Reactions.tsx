/**
 * The reactions under a message: one chip per key with its count, the
 * user's own highlighted (aria-pressed), a click toggling the user's
 * reaction, and a tooltip naming who reacted.
 */
import { Tooltip } from "../../components/Tooltip";
import { useT } from "../../i18n/useT";
import type { TimelineItem } from "../../state/TimelineViewModel";
import { nameList } from "../../state/timeline/summaries";
import styles from "./Message.module.css";
import { useTimeline } from "./TimelineContext";

export function Reactions({ item }: { item: TimelineItem }): React.JSX.Element | null {
  const t = useT("timeline");
  const { vm } = useTimeline();
  if (item.reactions.length === 0) return null;
  return (
    <div className={styles.reactions} role="group" aria-label={t("react")}>
      {item.reactions.map((group) => {
        const mine = vm.actions.hasReacted(item, group.key);
        const names = nameList(group.senders.map(vm.nameOf));
        return (
          <Tooltip key={group.key} label={t("reacted_by", { key: group.key, names })}>
            <button
              type="button"
              className={`${styles.reaction} ${mine ? styles.reactionMine : ""}`}
              aria-pressed={mine}
              aria-label={t("reaction_label", { key: group.key, count: group.count, names })}
              onClick={() => vm.actions.toggleReaction(item.eventId, group.key)}
            >
              <span className={styles.reactionKey}>{group.key}</span>
              <span className={styles.reactionCount}>{group.count}</span>
            </button>
          </Tooltip>
        );
      })}
    </div>
  );
}
