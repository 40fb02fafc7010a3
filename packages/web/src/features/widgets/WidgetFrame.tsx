/**
 * The iframe of one running widget, with the app's iframe policy
 * (framePolicy.ts). Its window is handed to the widget's session as the
 * frame renders, before the page can post anything, together with the only
 * origin messages are accepted from; a second frame that reuses the
 * widget's id is another window and is never heard.
 */
import { useCallback } from "react";
import { useT } from "../../i18n/useT";
import type { WidgetSession } from "../../state/widgets/WidgetSession";
import { WIDGET_SANDBOX, allowOf } from "./framePolicy";
import styles from "./Widgets.module.css";

// A session serves one frame; React may call the ref again (StrictMode), the attach is once.
const attached = new WeakSet<WidgetSession>();

/** What a frame shows: the session it talks to, the widget's id, name and kind, and its url. */
export interface FrameProps {
  session: WidgetSession;
  widgetId: string;
  label: string;
  /** A call widget (m.call, jitsi) may use the camera, the microphone and screen capture. */
  isCall: boolean;
  url: string;
  className?: string | undefined;
}

export function WidgetFrame({
  session,
  widgetId,
  label,
  isCall,
  url,
  className,
}: FrameProps): React.JSX.Element {
  const t = useT("widgets");
  const ref = useCallback(
    (el: HTMLIFrameElement | null) => {
      const win = el?.contentWindow;
      if (win === null || win === undefined || attached.has(session)) return;
      attached.add(session);
      try {
        session.attach(win, session.origin);
      } catch (e) {
        // A session that cannot start leaves the frame unanswered; the rest of the app goes on.
        console.error("widget: attach failed", e);
      }
    },
    [session],
  );
  return (
    <iframe
      ref={ref}
      className={className ?? styles.frame}
      title={t("frame_title", { name: label })}
      src={url}
      sandbox={WIDGET_SANDBOX}
      allow={allowOf(isCall)}
      referrerPolicy="no-referrer"
      data-widget-id={widgetId}
      onLoad={() => {
        try {
          session.onIframeLoad();
        } catch (e) {
          console.error("widget: load handling failed", e);
        }
      }}
    />
  );
}
