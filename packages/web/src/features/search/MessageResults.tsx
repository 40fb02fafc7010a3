/**
 * The Messages tab of search: a query, this room or all rooms, results
 * with the matched terms highlighted and a line of context each side;
 * choosing one jumps to it in the timeline. Older results load on demand
 * until the server has no more.
 */
import { useState } from "react";
import { Button } from "../../components/Button";
import { Spinner } from "../../components/Spinner";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import { highlightParts } from "../../state/search/SearchViewModel";
import type { SearchViewModel } from "../../state/search/SearchViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./Search.module.css";

function Highlighted({ text, terms }: { text: string; terms: readonly string[] }): React.JSX.Element {
  return (
    <>
      {highlightParts(text, terms).map((part, i) =>
        part.hit ? (
          <mark key={i} className={styles.mark}>
            {part.text}
          </mark>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}

export function MessageResults({
  search,
  room,
  onJump,
}: {
  search: SearchViewModel;
  room: { id: string; name: string } | null;
  onJump: (roomId: string, eventId: string) => void;
}): React.JSX.Element {
  const t = useT("search");
  const view = useObservable(search.messages);
  const [term, setTerm] = useState(view.term);
  const [scope, setScope] = useState<"room" | "all">(room !== null ? "room" : "all");
  const run = (nextScope = scope): void =>
    void search.searchMessages(term, nextScope === "room" && room !== null ? room.id : null);

  return (
    <>
      <form
        className={styles.query}
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          run();
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
      <div className={styles.scope} role="radiogroup" aria-label={t("tab_messages")}>
        {room !== null && (
          <label>
            <input
              type="radio"
              name="search-scope"
              checked={scope === "room"}
              onChange={() => {
                setScope("room");
                if (term.trim() !== "") run("room");
              }}
            />
            {t("scope_room")} ({room.name})
          </label>
        )}
        <label>
          <input
            type="radio"
            name="search-scope"
            checked={scope === "all"}
            onChange={() => {
              setScope("all");
              if (term.trim() !== "") run("all");
            }}
          />
          {t("scope_all")}
        </label>
      </div>
      {view.term === "" && !view.loading && <p className={styles.hint}>{t("hint")}</p>}
      {view.term !== "" && !view.loading && view.hits.length === 0 && view.error === null && (
        <p className={styles.hint}>{t("empty", { term: view.term })}</p>
      )}
      {view.hits.length > 0 && (
        <p className={styles.count} role="status">
          {t("results", { count: view.count })}
        </p>
      )}
      <ul className={styles.results} aria-label={t("tab_messages")}>
        {view.hits.map((hit) => (
          <li key={hit.eventId}>
            <button
              type="button"
              className={styles.hit}
              aria-label={t("jump", { room: hit.roomName })}
              onClick={() => onJump(hit.roomId, hit.eventId)}
            >
              <span className={styles.meta}>
                <span>
                  {hit.sender} · {hit.roomName}
                </span>
                <time dateTime={new Date(hit.ts).toISOString()}>{new Date(hit.ts).toLocaleString()}</time>
              </span>
              {hit.before !== undefined && <span className={styles.context}>{hit.before}</span>}
              <span className={styles.body}>
                <Highlighted text={hit.body} terms={view.highlights} />
              </span>
              {hit.after !== undefined && <span className={styles.context}>{hit.after}</span>}
            </button>
          </li>
        ))}
      </ul>
      {view.loading && <Spinner />}
      {view.error !== null && (
        <p className={styles.error} role="alert">
          {view.error}
        </p>
      )}
      {view.hits.length > 0 && !view.loading && view.error === null && (
        <Button variant="secondary" onClick={() => void search.loadMore()}>
          {t("more")}
        </Button>
      )}
    </>
  );
}
