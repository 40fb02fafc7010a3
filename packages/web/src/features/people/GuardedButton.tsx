/**
 * A button for an action the power levels may forbid: when `reason` is set
 * it stays focusable but is marked aria-disabled, does nothing, and shows
 * the reason as a tooltip on hover and focus (a disabled button could not
 * be focused, so a keyboard user would never learn why).
 */
import { Button } from "../../components/Button";
import type { ButtonProps } from "../../components/Button";
import { Tooltip } from "../../components/Tooltip";
import styles from "./People.module.css";

export interface GuardedButtonProps extends ButtonProps {
  /** Why the action is not allowed; null or undefined when it is. */
  reason: string | null | undefined;
}

export function GuardedButton({
  reason,
  onClick,
  className,
  ...rest
}: GuardedButtonProps): React.JSX.Element {
  if (reason === null || reason === undefined)
    return <Button {...rest} className={className} onClick={onClick} />;
  return (
    <Tooltip label={reason}>
      <Button
        {...rest}
        className={`${className ?? ""} ${styles.off}`}
        aria-disabled="true"
        onClick={() => undefined}
      />
    </Tooltip>
  );
}
