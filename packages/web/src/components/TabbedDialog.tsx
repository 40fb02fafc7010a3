/**
 * A wide modal dialog whose body is a set of tabs (Settings, Room settings,
 * Search): the title, the tabs and their panel, a Close button, and what
 * the caller puts after the tabs (status lines, nested dialogs).
 */
import type { ReactNode } from "react";
import { Button } from "./Button";
import { Dialog } from "./Dialog";
import { Tabs } from "./Tabs";
import type { TabsProps } from "./Tabs";

/** Props of TabbedDialog: the dialog's, and the tabs' under `tabs`. */
export interface TabbedDialogProps<T extends string> {
  title: string;
  /** The Close button's label. */
  closeLabel: string;
  onClose: () => void;
  tabs: Omit<TabsProps<T>, "children">;
  /** Wraps the tabs (a grid for vertical ones). */
  layoutClassName?: string;
  /** The selected tab's content. */
  children: ReactNode;
  /** After the tabs, inside the dialog. */
  after?: ReactNode;
}

export function TabbedDialog<T extends string>({
  title,
  closeLabel,
  onClose,
  tabs,
  layoutClassName,
  children,
  after,
}: TabbedDialogProps<T>): React.JSX.Element {
  const body = <Tabs {...tabs}>{children}</Tabs>;
  return (
    <Dialog
      open
      wide
      title={title}
      onClose={onClose}
      actions={
        <Button variant="secondary" onClick={onClose}>
          {closeLabel}
        </Button>
      }
    >
      {layoutClassName !== undefined ? <div className={layoutClassName}>{body}</div> : body}
      {after}
    </Dialog>
  );
}
