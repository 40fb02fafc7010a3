/**
 * OpenID consent: a widget asks to learn who the user is. The user allows
 * it once, always (remembered for this widget and room) or blocks it; the
 * pending request is answered once, and closing the dialog blocks.
 */
import { Button } from "../../components/Button";
import { Dialog } from "../../components/Dialog";
import { useT } from "../../i18n/useT";
import { useObservable } from "../../state/useObservable";
import type { WidgetSession } from "../../state/widgets/WidgetSession";

export function OpenIdDialog({
  session,
  name,
}: {
  session: WidgetSession;
  name: string;
}): React.JSX.Element | null {
  const t = useT("widgets");
  const pending = useObservable(session.openId);
  if (pending === null) return null;
  return (
    <Dialog
      open
      title={t("openid_title", { name: pending.widgetName ?? name })}
      onClose={() => session.answerOpenId("block")}
      actions={
        <>
          <Button variant="danger" onClick={() => session.answerOpenId("block")}>
            {t("openid_block")}
          </Button>
          <Button variant="secondary" onClick={() => session.answerOpenId("always")}>
            {t("openid_always")}
          </Button>
          <Button onClick={() => session.answerOpenId("once")}>{t("openid_once")}</Button>
        </>
      }
    >
      <p>{t("openid_body", { origin: pending.origin })}</p>
    </Dialog>
  );
}
