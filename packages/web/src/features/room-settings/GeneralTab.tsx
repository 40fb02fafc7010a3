/**
 * Settings, General: name, topic and picture (each saved on its own, or
 * disabled when the power levels forbid it), and the addresses: the main
 * one, the other published ones, local aliases (add, remove) and the
 * directory listing; URL previews (the reader's choice for the room, and
 * the room's default for those allowed to set it).
 */
import { useEffect, useState } from "react";
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { RoomSettingsViewModel } from "../../state/room-settings/RoomSettingsViewModel";
import type { RoomPreviewChoice } from "../../state/settings/UrlPreviewSettings";
import { useObservable } from "../../state/useObservable";
import { useAvatarUrl } from "../timeline/media/useMedia";
import styles from "./RoomSettings.module.css";

export function GeneralTab({ settings }: { settings: RoomSettingsViewModel }): React.JSX.Element {
  const t = useT("roomSettings");
  const common = useT("common");
  const view = useObservable(settings.view);
  const status = useObservable(settings.status);
  const addresses = useObservable(settings.addresses);
  const [name, setName] = useState(view.name);
  const [topic, setTopic] = useState(view.topic);
  const [alias, setAlias] = useState("");
  const avatar = useAvatarUrl(view.avatarUrl);
  const canName = view.can("m.room.name");
  const canTopic = view.can("m.room.topic");
  const canAvatar = view.can("m.room.avatar");
  const canAlias = view.can("m.room.canonical_alias");

  useEffect(() => void settings.loadAddresses(), [settings]);

  return (
    <>
      <div className={styles.row}>
        <Avatar id={view.roomId} name={view.name || view.roomId} url={avatar} size={64} />
        <label className={styles.choice}>
          <input
            type="file"
            accept="image/*"
            aria-label={t("avatar_upload")}
            disabled={!canAvatar || status.busy === "avatar"}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file !== undefined)
                void settings.setAvatar({ data: file, type: file.type, name: file.name });
            }}
          />
        </label>
        {view.avatarUrl !== undefined && (
          <Button
            size="sm"
            variant="ghost"
            disabled={!canAvatar}
            onClick={() => void settings.setAvatar(null)}
          >
            {t("avatar_remove")}
          </Button>
        )}
      </div>
      <form
        className={styles.rowEnd}
        onSubmit={(e) => {
          e.preventDefault();
          void settings.setName(name);
        }}
      >
        <TextField
          className={styles.grow}
          label={t("name")}
          value={name}
          onChange={setName}
          disabled={!canName}
        />
        <Button type="submit" disabled={!canName || name === view.name} busy={status.busy === "name"}>
          {common("save")}
        </Button>
      </form>
      <form
        className={styles.rowEnd}
        onSubmit={(e) => {
          e.preventDefault();
          void settings.setTopic(topic);
        }}
      >
        <TextField
          className={styles.grow}
          label={t("topic")}
          value={topic}
          onChange={setTopic}
          disabled={!canTopic}
        />
        <Button type="submit" disabled={!canTopic || topic === view.topic} busy={status.busy === "topic"}>
          {common("save")}
        </Button>
      </form>
      <fieldset className={styles.group}>
        <legend className={styles.legend}>{t("aliases")}</legend>
        <label className={styles.label}>
          {t("canonical")}
          <select
            className={styles.select}
            value={view.canonicalAlias ?? ""}
            disabled={!canAlias}
            onChange={(e) => void settings.setCanonical(e.target.value === "" ? null : e.target.value)}
          >
            <option value="">{t("canonical_none")}</option>
            {[
              ...new Set([
                ...(addresses?.local ?? []),
                ...view.altAliases,
                ...(view.canonicalAlias ? [view.canonicalAlias] : []),
              ]),
            ].map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <span className={styles.legend}>{t("local_aliases")}</span>
        <ul className={styles.aliases}>
          {(addresses?.local ?? []).map((a) => (
            <li key={a} className={styles.alias}>
              <span className={styles.mono}>{a}</span>
              <Button
                size="sm"
                variant="ghost"
                aria-label={t("alias_remove", { alias: a })}
                onClick={() => void settings.removeAlias(a)}
              >
                ✕
              </Button>
            </li>
          ))}
        </ul>
        <form
          className={styles.rowEnd}
          onSubmit={(e) => {
            e.preventDefault();
            void settings.addAlias(alias).then((ok) => ok && setAlias(""));
          }}
        >
          <TextField
            className={styles.grow}
            label={t("alias_new")}
            value={alias}
            onChange={setAlias}
            placeholder="my-room"
          />
          <Button
            type="submit"
            variant="secondary"
            disabled={alias.trim() === ""}
            busy={status.busy === "alias"}
          >
            {t("alias_add")}
          </Button>
        </form>
        <label className={styles.choice}>
          <input
            type="checkbox"
            checked={addresses?.published ?? false}
            disabled={addresses === null || status.busy === "publish"}
            onChange={(e) => void settings.setPublished(e.target.checked)}
          />
          {t("publish")}
        </label>
      </fieldset>
      <UrlPreviewFields settings={settings} canSetDefault={view.can("org.matrix.room.preview_urls")} />
    </>
  );
}

const CHOICES: RoomPreviewChoice[] = ["default", "on", "off"];

/** URL previews in this room: the reader's choice, and the room's default for everyone. */
function UrlPreviewFields({
  settings,
  canSetDefault,
}: {
  settings: RoomSettingsViewModel;
  canSetDefault: boolean;
}): React.JSX.Element {
  const t = useT("roomSettings");
  const previews = settings.urlPreviews;
  const [choice, setChoice] = useState(() => previews.roomChoice(settings.roomId));
  const [roomDefault, setRoomDefault] = useState(() => previews.roomDefault(settings.roomId));
  return (
    <fieldset className={styles.group}>
      <legend className={styles.legend}>{t("url_previews")}</legend>
      <div role="radiogroup" aria-label={t("url_previews")}>
        {CHOICES.map((c) => (
          <label key={c} className={styles.choice}>
            <input
              type="radio"
              name="url-previews"
              checked={choice === c}
              onChange={() => {
                setChoice(c);
                void previews.setRoomChoice(settings.roomId, c);
              }}
            />
            {t(`url_previews_${c}`)}
          </label>
        ))}
      </div>
      <label className={styles.choice}>
        <input
          type="checkbox"
          checked={roomDefault}
          disabled={!canSetDefault}
          onChange={(e) => {
            setRoomDefault(e.target.checked);
            void previews.setRoomDefault(settings.roomId, e.target.checked);
          }}
        />
        {t("url_previews_room_default")}
      </label>
    </fieldset>
  );
}
