/** The read receipt avatars under an event: up to three, then "+n"; the names in a tooltip. */
import { Avatar } from "../../components/Avatar";
import { Tooltip } from "../../components/Tooltip";
import { useT } from "../../i18n/useT";
import { nameList } from "../../state/timeline/summaries";
import styles from "./Message.module.css";
import { useTimeline } from "./TimelineContext";
import { useAvatarUrl } from "./media/useMedia";

const SHOWN = 3;

function ReaderAvatar({ userId }: { userId: string }): React.JSX.Element {
  const { vm } = useTimeline();
  const url = useAvatarUrl(vm.avatarOf(userId));
  return <Avatar id={userId} name={vm.nameOf(userId)} url={url} size={20} />;
}

export function ReadReceipts({ readers }: { readers: readonly string[] }): React.JSX.Element | null {
  const t = useT("timeline");
  const { vm } = useTimeline();
  if (readers.length === 0) return null;
  const label = t("read_by", { names: nameList(readers.map(vm.nameOf)) });
  return (
    <div className={styles.receipts}>
      <Tooltip label={label}>
        <span
          className={styles.receiptStack}
          tabIndex={0}
          role="img"
          aria-label={label}
          data-testid="receipts"
        >
          {readers.slice(0, SHOWN).map((id) => (
            <ReaderAvatar key={id} userId={id} />
          ))}
          {readers.length > SHOWN && (
            <span className={styles.receiptMore}>{t("read_more", { count: readers.length - SHOWN })}</span>
          )}
        </span>
      </Tooltip>
    </div>
  );
}
