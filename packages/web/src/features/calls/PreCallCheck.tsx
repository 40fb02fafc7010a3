/**
 * The pre-call check (Settings › Voice & video, and the call view's
 * "Troubleshoot connection"): runs the check on demand and shows whether
 * STUN and TURN answered and which candidate types were gathered, and,
 * when the server offers a LiveKit focus, whether its token service gave a
 * call token and the SFU answered (with the error in words when not).
 */
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { PreCallViewModel } from "../../state/calls/PreCallViewModel";
import { useObservable } from "../../state/useObservable";
import styles from "./Calls.module.css";

export function PreCallCheck({ check }: { check: PreCallViewModel }): React.JSX.Element {
  const t = useT("calls");
  const result = useObservable(check.result);
  const running = useObservable(check.running);
  const word = (s: "reachable" | "unreachable" | "not_configured"): string =>
    s === "reachable"
      ? t("precallReachable")
      : s === "unreachable"
        ? t("precallUnreachable")
        : t("precallNotConfigured");
  return (
    <section className={styles.precall} aria-labelledby="precall-title" data-testid="precall">
      <h3 id="precall-title">{t("precallTitle")}</h3>
      <p className={styles.muted}>{t("precallHint")}</p>
      <div>
        <Button size="sm" busy={running} disabled={!check.available} onClick={() => void check.run()}>
          {running ? t("precallRunning") : t("precallRun")}
        </Button>
      </div>
      {result !== null && (
        <div role="status">
          {result.error !== undefined ? (
            <p className={styles.error}>{t("precallError", { message: result.error })}</p>
          ) : (
            <>
              <dl>
                <dt>{t("precallStun")}</dt>
                <dd data-testid="precall-stun">{word(result.stun)}</dd>
                <dt>{t("precallTurn")}</dt>
                <dd data-testid="precall-turn">{word(result.turn)}</dd>
              </dl>
              <p data-testid="precall-candidates">
                {t("precallCandidates", {
                  host: result.candidates.host,
                  srflx: result.candidates.srflx,
                  relay: result.candidates.relay,
                })}
              </p>
              {result.timedOut && <p className={styles.muted}>{t("precallTimedOut")}</p>}
              {result.livekit !== undefined && (
                <>
                  <dl>
                    <dt>{t("precallTokenService")}</dt>
                    <dd data-testid="precall-token-service">
                      {t(`precallLk_${result.livekit.tokenService}`)}
                    </dd>
                    <dt>{t("precallSfu")}</dt>
                    <dd data-testid="precall-sfu">{t(`precallLk_${result.livekit.sfu}`)}</dd>
                  </dl>
                  {result.livekit.error !== undefined && (
                    <p className={styles.error} data-testid="precall-livekit-error">
                      {result.livekit.error}
                    </p>
                  )}
                </>
              )}
            </>
          )}
        </div>
      )}
    </section>
  );
}
