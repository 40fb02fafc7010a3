/**
 * The member list panel: a filter, Invite (disabled with the reason when
 * the power levels forbid it), and the joined, asking-to-join, invited and
 * banned sections, each member with avatar, presence dot and role label;
 * a member opens their user panel. The full list loads on open.
 */
import { useState } from "react";
import { Avatar } from "../../components/Avatar";
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { Spinner } from "../../components/Spinner";
import { useT } from "../../i18n/useT";
import type { MemberRow } from "../../state/people/MemberListViewModel";
import { roomExtrasOf } from "../../state/people/RoomExtras";
import type { RoomViewModel } from "../../state/RoomViewModel";
import { useObservable } from "../../state/useObservable";
import { useAvatarUrl } from "../timeline/media/useMedia";
import { GuardedButton } from "./GuardedButton";
import { InviteDialog } from "./InviteDialog";
import styles from "./People.module.css";

function Member({ row, onOpen }: { row: MemberRow; onOpen: () => void }): React.JSX.Element {
  const t = useT("people");
  const url = useAvatarUrl(row.avatarUrl);
  const showRole = row.role !== "user";
  return (
    <li>
      <button type="button" className={styles.member} onClick={onOpen} data-user-id={row.userId}>
        <span className={styles.avatarWrap}>
          <Avatar id={row.userId} name={row.name} url={url} size={32} />
          {row.presence !== undefined && (
            <span
              className={`${styles.dot} ${styles[row.presence] ?? ""}`}
              role="img"
              aria-label={t(`presence_${row.presence}`)}
            />
          )}
        </span>
        <span className={styles.name} title={row.userId}>
          {row.name}
        </span>
        {showRole && <span className={styles.role}>{row.roleLabel}</span>}
      </button>
    </li>
  );
}

function Section({
  title,
  rows,
  onOpen,
}: {
  title: string;
  rows: MemberRow[];
  onOpen: (userId: string) => void;
}): React.JSX.Element | null {
  if (rows.length === 0) return null;
  return (
    <section aria-label={title}>
      <h4 className={styles.section}>
        {title} · {rows.length}
      </h4>
      <ul className={styles.list}>
        {rows.map((row) => (
          <Member key={row.userId} row={row} onOpen={() => onOpen(row.userId)} />
        ))}
      </ul>
    </section>
  );
}

export function MemberPanel({ vm }: { vm: RoomViewModel }): React.JSX.Element {
  const t = useT("people");
  const list = roomExtrasOf(vm).members;
  const sections = useObservable(list.sections);
  const load = useObservable(list.load);
  const query = useObservable(list.query);
  const [inviting, setInviting] = useState(false);
  const open = (userId: string): void => vm.openPanel({ kind: "user", userId });
  const total =
    sections.joined.length + sections.invited.length + sections.banned.length + sections.knocking.length;

  return (
    <div className={styles.panel}>
      <h3 className={styles.title}>{t("members_title")}</h3>
      <div className={styles.toolbar}>
        <input
          className={styles.search}
          type="search"
          aria-label={t("members_search")}
          placeholder={t("members_search")}
          value={query}
          onChange={(e) => list.setQuery(e.target.value)}
        />
        <GuardedButton size="sm" reason={list.whyCannotInvite} onClick={() => setInviting(true)}>
          {t("members_invite")}
        </GuardedButton>
      </div>
      {load.kind === "loading" && <Spinner size="sm" label={t("members_loading")} />}
      {load.kind === "error" && (
        <Banner
          tone="error"
          action={
            <Button size="sm" variant="secondary" onClick={() => void list.loadMembers()}>
              {t("members_load_retry")}
            </Button>
          }
        >
          {load.message}
        </Banner>
      )}
      <Section title={t("members_joined")} rows={sections.joined} onOpen={open} />
      <Section title={t("members_knocking")} rows={sections.knocking} onOpen={open} />
      <Section title={t("members_invited")} rows={sections.invited} onOpen={open} />
      <Section title={t("members_banned")} rows={sections.banned} onOpen={open} />
      {sections.thirdParty.length > 0 && (
        <section aria-label={t("members_invited_email")}>
          <h4 className={styles.section}>
            {t("members_invited_email")} · {sections.thirdParty.length}
          </h4>
          <ul className={styles.list}>
            {sections.thirdParty.map((label) => (
              <li key={label} className={styles.member}>
                <Avatar id={label} name={label} size={32} />
                <span className={styles.name}>{label}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
      {total === 0 && load.kind !== "loading" && <p className={styles.muted}>{t("members_empty")}</p>}
      {inviting && (
        <InviteDialog
          list={list}
          roomName={vm.room.getSnapshot().name.name}
          onClose={() => setInviting(false)}
        />
      )}
    </div>
  );
}
