/**
 * The small space dialogs: create a space (name, description, public or
 * private), add rooms or sub-spaces to one (checkboxes over the joined
 * rooms not yet in it), a new room inside it, invite someone, and leave.
 * Failures show as one sentence (describeFailure: the SDK's refusal before
 * any request, or the server's).
 */
import { useState } from "react";
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import { describeFailure } from "../../state/rooms/failure";
import type { SpacesViewModel } from "../../state/spaces/SpacesViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./Spaces.module.css";

interface SpaceProps {
  spaces: SpacesViewModel;
  spaceId: string;
  name: string;
  onClose: () => void;
}

/** Runs `action` with busy and error state; closes (or calls `done`) when it succeeds. */
function useAction(): {
  busy: boolean;
  error: string | null;
  setError: (e: string | null) => void;
  run: (action: () => Promise<unknown>, done: () => void) => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = (action: () => Promise<unknown>, done: () => void): void => {
    setBusy(true);
    setError(null);
    action()
      .then((ok) => {
        setBusy(false);
        if (ok !== false) done();
      })
      .catch((e: unknown) => {
        setBusy(false);
        setError(describeFailure(e));
      });
  };
  return { busy, error, setError, run };
}

function Actions({
  busy,
  submit,
  onSubmit,
  onClose,
  danger = false,
}: {
  busy: boolean;
  submit: string;
  onSubmit: () => void;
  onClose: () => void;
  danger?: boolean;
}): React.JSX.Element {
  const common = useT("common");
  return (
    <>
      <Button variant="secondary" onClick={onClose}>
        {common("cancel")}
      </Button>
      <Button variant={danger ? "danger" : "primary"} busy={busy} onClick={onSubmit}>
        {submit}
      </Button>
    </>
  );
}

export function CreateSpaceDialog({
  spaces,
  onClose,
  onCreated,
}: {
  spaces: SpacesViewModel;
  onClose: () => void;
  onCreated: (spaceId: string) => void;
}): React.JSX.Element {
  const t = useT("spaces");
  const [name, setName] = useState("");
  const [topic, setTopic] = useState("");
  const [isPublic, setPublic] = useState(false);
  const { busy, error, setError, run } = useAction();
  const submit = (): void => {
    if (name.trim() === "") return setError(t("create_name_missing"));
    let created = "";
    run(
      async () => (created = await spaces.createSpace({ name, topic, isPublic })),
      () => onCreated(created),
    );
  };
  return (
    <Dialog
      open
      title={t("create_title")}
      onClose={onClose}
      actions={<Actions busy={busy} submit={t("create_submit")} onSubmit={submit} onClose={onClose} />}
    >
      <form
        className={styles.form}
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <TextField label={t("create_name")} value={name} onChange={setName} autoFocus error={error} />
        <TextField label={t("create_topic")} value={topic} onChange={setTopic} />
        <fieldset className={styles.form}>
          <legend>{t("create_visibility")}</legend>
          <label className={styles.choice}>
            <input
              type="radio"
              name="space-visibility"
              checked={!isPublic}
              onChange={() => setPublic(false)}
            />
            {t("create_private")}
          </label>
          <label className={styles.choice}>
            <input type="radio" name="space-visibility" checked={isPublic} onChange={() => setPublic(true)} />
            {t("create_public")}
          </label>
        </fieldset>
        <button type="submit" hidden />
      </form>
    </Dialog>
  );
}

export function AddRoomsDialog({ spaces, spaceId, name, onClose }: SpaceProps): React.JSX.Element {
  const t = useT("spaces");
  const [candidates] = useState(() => spaces.candidates(spaceId));
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const { busy, run } = useAction();
  const error = useObservable(spaces.error);
  return (
    <Dialog
      open
      title={t("add_title", { name })}
      onClose={onClose}
      actions={
        <Actions
          busy={busy}
          submit={t("add_submit")}
          onSubmit={() => run(() => spaces.addRooms(spaceId, [...chosen]), onClose)}
          onClose={onClose}
        />
      }
    >
      {candidates.length === 0 && <p>{t("add_none")}</p>}
      <ul className={styles.rooms}>
        {candidates.map((c) => (
          <li key={c.roomId}>
            <label className={styles.choice}>
              <input
                type="checkbox"
                checked={chosen.has(c.roomId)}
                onChange={(e) => {
                  const next = new Set(chosen);
                  if (e.target.checked) next.add(c.roomId);
                  else next.delete(c.roomId);
                  setChosen(next);
                }}
              />
              {c.name}
              {c.isSpace && <span className={styles.tag}>{t("add_space_tag")}</span>}
            </label>
          </li>
        ))}
      </ul>
      {error !== null && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}

export function NewRoomDialog({
  spaces,
  spaceId,
  name,
  onClose,
  onCreated,
}: SpaceProps & { onCreated: (roomId: string) => void }): React.JSX.Element {
  const t = useT("spaces");
  const [room, setRoom] = useState("");
  const { busy, error, run } = useAction();
  const submit = (): void => {
    let id = "";
    run(
      async () => (id = await spaces.createRoomIn(spaceId, room)),
      () => {
        onCreated(id);
        onClose();
      },
    );
  };
  return (
    <Dialog
      open
      title={t("new_room_title", { name })}
      onClose={onClose}
      actions={<Actions busy={busy} submit={t("new_room_submit")} onSubmit={submit} onClose={onClose} />}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <TextField label={t("new_room_name")} value={room} onChange={setRoom} autoFocus error={error} />
      </form>
    </Dialog>
  );
}

export function InviteToSpaceDialog({ spaces, spaceId, name, onClose }: SpaceProps): React.JSX.Element {
  const t = useT("spaces");
  const [user, setUser] = useState("");
  const [sent, setSent] = useState<string | null>(null);
  const { busy, error, setError, run } = useAction();
  const submit = (): void => {
    const id = user.trim();
    if (!/^@[^:\s]+:\S+$/.test(id)) return setError(t("invite_invalid"));
    run(
      () => spaces.invite(spaceId, id),
      () => {
        setSent(id);
        setUser("");
      },
    );
  };
  return (
    <Dialog
      open
      title={t("invite_title", { name })}
      onClose={onClose}
      actions={<Actions busy={busy} submit={t("invite_submit")} onSubmit={submit} onClose={onClose} />}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <TextField label={t("invite_user")} value={user} onChange={setUser} autoFocus error={error} />
      </form>
      {sent !== null && <p role="status">{t("invite_sent", { user: sent })}</p>}
    </Dialog>
  );
}

export function LeaveSpaceDialog({ spaces, spaceId, name, onClose }: SpaceProps): React.JSX.Element {
  const t = useT("spaces");
  const { busy, run } = useAction();
  const error = useObservable(spaces.error);
  return (
    <Dialog
      open
      title={t("leave_title", { name })}
      onClose={onClose}
      actions={
        <Actions
          danger
          busy={busy}
          submit={t("leave_submit")}
          onSubmit={() => run(() => spaces.leave(spaceId), onClose)}
          onClose={onClose}
        />
      }
    >
      <p>{t("leave_body")}</p>
      {error !== null && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}
