/**
 * Settings, Roles & permissions: the power level editor. The defaults and
 * moderation levels, the level for each event type (the room's overrides
 * and the common ones), and each privileged user, edited as a draft and
 * saved in one m.room.power_levels event. The SDK's rules decide what the
 * user may change; the reason shows when they may not.
 */
import { useState } from "react";
import { Button } from "../../components/Button";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import { currentLevel, LEVEL_KEYS } from "../../state/room-settings/powerLevelEdits";
import type { LevelKey } from "../../state/room-settings/powerLevelEdits";
import type {
  PowerLevelChanges,
  RoomSettingsViewModel,
} from "../../state/room-settings/RoomSettingsViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./RoomSettings.module.css";

const COMMON_EVENTS = [
  "m.room.name",
  "m.room.topic",
  "m.room.avatar",
  "m.room.canonical_alias",
  "m.room.power_levels",
  "m.room.history_visibility",
  "m.room.encryption",
  "m.room.tombstone",
  "m.room.server_acl",
  "m.room.pinned_events",
];

const KEY_LABEL: Record<LevelKey, string> = {
  users_default: "roles_default_user",
  events_default: "roles_events_default",
  state_default: "roles_state_default",
  invite: "roles_invite",
  kick: "roles_kick",
  ban: "roles_ban",
  redact: "roles_redact",
};

function LevelInput({
  label,
  value,
  onChange,
}: {
  label: string;
  value: number;
  onChange: (v: number) => void;
}): React.JSX.Element {
  return (
    <>
      <span>{label}</span>
      <input
        className={styles.number}
        type="number"
        aria-label={label}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
      />
    </>
  );
}

export function RolesTab({ settings }: { settings: RoomSettingsViewModel }): React.JSX.Element {
  const t = useT("roomSettings");
  useObservable(settings.view); // re-read the power levels when the room changes
  const status = useObservable(settings.status);
  const pl = settings.powerLevels;
  const [draft, setDraft] = useState<PowerLevelChanges>({});
  const [newUser, setNewUser] = useState("");

  const level = (key: LevelKey): number => draft.levels?.[key] ?? currentLevel(pl, key);
  const eventLevel = (type: string): number => draft.events?.[type] ?? pl.requiredForEvent(type, true);
  const users = new Map(pl.levels.users);
  for (const [id, v] of Object.entries(draft.users ?? {})) {
    if (v === null) users.delete(id);
    else users.set(id, v);
  }
  const types = [...new Set([...pl.levels.events.keys(), ...COMMON_EVENTS])].sort();
  const changed = Object.keys(draft).length > 0;
  const why = changed ? settings.whyCannotEditPowerLevels(draft) : settings.whyCannotEditPowerLevels({});

  return (
    <>
      {why !== null && <p className={styles.error}>{why}</p>}
      <div className={styles.levels}>
        {LEVEL_KEYS.map((key) => (
          <LevelInput
            key={key}
            label={t(KEY_LABEL[key])}
            value={level(key)}
            onChange={(v) => setDraft({ ...draft, levels: { ...draft.levels, [key]: v } })}
          />
        ))}
        <LevelInput
          label={t("roles_room_notify")}
          value={draft.notifyRoom ?? pl.notificationLevel("room")}
          onChange={(v) => setDraft({ ...draft, notifyRoom: v })}
        />
        {types.map((type) => (
          <LevelInput
            key={type}
            label={
              COMMON_EVENTS.includes(type) ? t(`ev_${type.replace(/\./g, "_")}`) : t("roles_event", { type })
            }
            value={eventLevel(type)}
            onChange={(v) => setDraft({ ...draft, events: { ...draft.events, [type]: v } })}
          />
        ))}
      </div>
      <fieldset className={styles.group}>
        <legend className={styles.legend}>{t("roles_users")}</legend>
        <div className={styles.levels}>
          {[...users].map(([userId, value]) => (
            <LevelInput
              key={userId}
              label={userId}
              value={value}
              onChange={(v) => setDraft({ ...draft, users: { ...draft.users, [userId]: v } })}
            />
          ))}
        </div>
        <form
          className={styles.row}
          onSubmit={(e) => {
            e.preventDefault();
            if (!/^@[^:\s]+:\S+$/.test(newUser.trim())) return;
            setDraft({ ...draft, users: { ...draft.users, [newUser.trim()]: 50 } });
            setNewUser("");
          }}
        >
          <TextField
            className={styles.grow}
            label={t("roles_user_id")}
            value={newUser}
            onChange={setNewUser}
            placeholder="@name:server"
          />
          <Button type="submit" size="sm" variant="secondary">
            {t("roles_user_add")}
          </Button>
        </form>
      </fieldset>
      <div className={styles.row}>
        <Button
          disabled={!changed || why !== null}
          busy={status.busy === "roles"}
          onClick={() => void settings.savePowerLevels(draft).then((ok) => ok && setDraft({}))}
        >
          {t("roles_save")}
        </Button>
      </div>
    </>
  );
}
