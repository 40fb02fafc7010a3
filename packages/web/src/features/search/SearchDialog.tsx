/**
 * The search dialog (a lazy chunk): Messages (this room or all, server-side),
 * People (the user directory; Message starts or opens a direct chat) and
 * Public rooms (the room directory the + menu also opens).
 */
import { useState } from "react";
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { TabbedDialog } from "../../components/TabbedDialog";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { ClientViewModel } from "../../state/ClientViewModel";
import { SearchViewModel } from "../../state/search/SearchViewModel";
import { useObservable } from "../../state/useObservable";
import { DirectoryDialog } from "../rooms/DirectoryDialog";
import { MessageResults } from "./MessageResults";
import styles from "./Search.module.css";

const TABS = ["messages", "people", "rooms"] as const;
type Tab = (typeof TABS)[number];

function People({
  search,
  client,
  onDone,
}: {
  search: SearchViewModel;
  client: ClientViewModel;
  onDone: () => void;
}): React.JSX.Element {
  const t = useT("search");
  const users = useObservable(search.users);
  const error = useObservable(search.usersError);
  const [term, setTerm] = useState("");
  const actions = client.roomList.actions;
  return (
    <>
      <form
        className={styles.query}
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          void search.searchUsers(term);
        }}
      >
        <TextField
          className={styles.grow}
          type="search"
          label={t("field")}
          value={term}
          onChange={setTerm}
          autoFocus
        />
        <Button type="submit" disabled={term.trim() === ""}>
          {t("button")}
        </Button>
      </form>
      {users.length === 0 && (
        <p className={styles.hint}>{term === "" ? t("people_hint") : t("people_empty")}</p>
      )}
      {error !== null && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      <ul className={styles.results} aria-label={t("tab_people")}>
        {users.map((u) => (
          <li key={u.userId} className={styles.person}>
            <Avatar id={u.userId} name={u.displayName} size={32} />
            <span className={styles.personName}>
              <strong>{u.displayName}</strong>
              <span className={styles.hint}>{u.userId}</span>
            </span>
            {actions !== null && u.userId !== client.userId && (
              <Button
                size="sm"
                variant="secondary"
                onClick={() =>
                  void actions.startDm(u.userId).then(({ roomId }) => {
                    client.roomList.selectWhenJoined(roomId);
                    onDone();
                  })
                }
              >
                {t("message_user")}
              </Button>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

export function SearchDialog({
  client,
  onClose,
}: {
  client: ClientViewModel;
  onClose: () => void;
}): React.JSX.Element {
  const t = useT("search");
  const common = useT("common");
  // No subscriptions: a second instance under StrictMode holds nothing.
  const [search] = useState(() => new SearchViewModel(client.client));
  const [tab, setTab] = useState<Tab>("messages");
  const [directory, setDirectory] = useState<ReturnType<
    NonNullable<typeof client.roomList.actions>["openDirectory"]
  > | null>(null);
  const room = useObservable(client.room);
  const snapshot = room?.room.getSnapshot();

  return (
    <TabbedDialog
      title={t("title")}
      closeLabel={common("close")}
      onClose={onClose}
      tabs={{
        ids: TABS,
        selected: tab,
        onSelect: setTab,
        labelOf: (id) => t(`tab_${id}`),
        label: t("title"),
        idPrefix: "search",
        panelClassName: styles.panel,
      }}
      after={
        directory !== null && (
          <DirectoryDialog
            directory={directory}
            isJoined={(roomId) => client.roomList.isJoined(roomId)}
            onClose={() => setDirectory(null)}
            onJoined={(roomId) => {
              setDirectory(null);
              client.roomList.selectWhenJoined(roomId);
              onClose();
            }}
          />
        )
      }
    >
      {tab === "messages" && (
        <MessageResults
          search={search}
          room={snapshot !== undefined ? { id: snapshot.roomId, name: snapshot.name.name } : null}
          onJump={(roomId, eventId) => {
            client.openEvent(roomId, eventId);
            onClose();
          }}
        />
      )}
      {tab === "people" && <People search={search} client={client} onDone={onClose} />}
      {tab === "rooms" && (
        <>
          <p className={styles.hint}>{t("rooms_hint")}</p>
          {client.roomList.actions !== null && (
            <Button onClick={() => setDirectory(client.roomList.actions?.openDirectory() ?? null)}>
              {t("rooms_open")}
            </Button>
          )}
        </>
      )}
    </TabbedDialog>
  );
}
