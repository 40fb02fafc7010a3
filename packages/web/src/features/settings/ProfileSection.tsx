/** Settings › Profile: display name, profile picture and presence. */
import { useEffect, useState } from "react";
import { Avatar } from "../../components/Avatar";
import { Button } from "../../components/Button";
import { TextField } from "../../components/TextField";
import { useT } from "../../i18n/useT";
import type { AccountSettings } from "../../state/settings/AccountSettings";
import { useObservable } from "../../state/useObservable";
import { useAvatarUrl } from "../timeline/media/useMedia";
import styles from "./Settings.module.css";
import { StatusLine } from "./StatusLine";

const PRESENCE = ["online", "unavailable", "offline"] as const;

export function ProfileSection({
  account,
  userId,
}: {
  account: AccountSettings;
  userId: string;
}): React.JSX.Element {
  const t = useT("settings");
  const profile = useObservable(account.profile);
  const presence = useObservable(account.presence);
  const status = useObservable(account.profileStatus);
  const caps = useObservable(account.capabilities);
  const [name, setName] = useState("");
  const avatar = useAvatarUrl(profile?.avatarUrl);
  useEffect(() => setName(profile?.displayName ?? ""), [profile?.displayName]);

  if (profile === null) return <p className={styles.hint}>{t("loading")}</p>;
  return (
    <>
      <div className={styles.row}>
        <Avatar id={userId} name={profile.displayName || userId} url={avatar} size={72} />
        <label className={styles.choice}>
          <span className={styles.heading}>{t("avatar")}</span>
          <input
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            aria-label={t("avatar_upload")}
            disabled={caps?.setAvatarUrl === false || status.busy}
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void account.setAvatar(file, file.name);
            }}
          />
        </label>
      </div>
      <form
        className={styles.row}
        onSubmit={(e) => {
          e.preventDefault();
          void account.setDisplayName(name);
        }}
      >
        <TextField
          className={styles.grow}
          label={t("display_name")}
          value={name}
          onChange={setName}
          disabled={caps?.setDisplayname === false}
          hint={userId}
        />
        <Button
          type="submit"
          busy={status.busy}
          disabled={name.trim() === "" || name === profile.displayName}
        >
          {t("save")}
        </Button>
      </form>
      <fieldset className={styles.group}>
        <legend className={styles.legend}>{t("presence")}</legend>
        <div className={styles.row} role="radiogroup" aria-label={t("presence")}>
          {PRESENCE.map((p) => (
            <label key={p} className={styles.choice}>
              <input
                type="radio"
                name="presence"
                checked={presence === p}
                onChange={() => void account.setPresence(p)}
              />
              {t(`presence_${p}`)}
            </label>
          ))}
        </div>
      </fieldset>
      <StatusLine status={status} />
    </>
  );
}
