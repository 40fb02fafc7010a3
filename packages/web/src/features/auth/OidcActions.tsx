/**
 * The OIDC part of the sign-in screen: when the homeserver names a provider,
 * "Continue with <provider host>" is the primary action (and "Create
 * account" opens the provider's registration when it advertises
 * prompt=create); an advertised but unusable provider is explained instead.
 */
import { Banner } from "../../components/Banner";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import type { OidcStatus, SignInViewModel } from "../../state/SignInViewModel";
import styles from "./AuthForms.module.css";

export function OidcActions({
  vm,
  oidc,
  busy,
}: {
  vm: SignInViewModel;
  oidc: OidcStatus;
  busy: string | null;
}): React.JSX.Element | null {
  const t = useT("auth");
  if (oidc.kind === "none") return null;
  if (oidc.kind === "error") {
    return <Banner tone="warning">{t("oidc_unavailable_generic", { message: oidc.message })}</Banner>;
  }
  const { host, canCreate } = oidc.offer;
  return (
    <div className={styles.alternatives} data-testid="oidc">
      <Button wide busy={busy === "oidc"} disabled={busy !== null} onClick={() => void vm.continueWithOidc()}>
        {t("oidc_continue", { host })}
      </Button>
      {canCreate && (
        <Button
          variant="secondary"
          wide
          disabled={busy !== null}
          onClick={() => void vm.continueWithOidc(true)}
        >
          {t("oidc_create")}
        </Button>
      )}
      <p className={styles.hint}>{t("oidc_hint", { host })}</p>
    </div>
  );
}
