/**
 * The room's apps panel (the right-hand panel behind the header's "Apps"
 * button): every widget of the room with its type, origin and who added
 * it, buttons to show it (on top, side panel, maximised,
 * picture-in-picture) or hide it, and, for users at the widget event's
 * power level, edit and remove, and the form that adds one by URL with a
 * name and a type. Below that level the form and the buttons are disabled
 * and a line says which level is needed; a refusal from the SDK is shown
 * in words.
 */
import { useState } from "react";
import { Button } from "../../components/Button";
import { useT } from "../../i18n/useT";
import { useObservable } from "../../state/useObservable";
import type { RoomWidget } from "../../state/widgets/roomWidgets";
import type { RoomWidgetsViewModel, WidgetForm as FormValue } from "../../state/widgets/RoomWidgetsViewModel";
import { WidgetForm } from "./WidgetForm";
import styles from "./Widgets.module.css";

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function WidgetRow({
  vm,
  widget,
  canManage,
}: {
  vm: RoomWidgetsViewModel;
  widget: RoomWidget;
  canManage: boolean;
}): React.JSX.Element {
  const t = useT("widgets");
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const layout = useObservable(vm.layout);
  const container = layout.get(widget.id) ?? "top";
  const run = async (fn: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <li className={styles.row} data-widget-row={widget.id}>
      <div className={styles.rowHead}>
        <strong>{widget.label}</strong> <span className={styles.rowType}>{widget.type}</span>
      </div>
      <div className={styles.rowMeta}>
        <span data-testid="widget-origin">{t("origin", { origin: widget.origin })}</span>
        <span>{t("added_by", { name: vm.nameOf(widget.sender) })}</span>
      </div>
      <div className={styles.rowActions}>
        {container === "closed" ? (
          <Button size="sm" variant="secondary" onClick={() => vm.place(widget.id, "top")}>
            {t("show_top")}
          </Button>
        ) : (
          <Button size="sm" variant="secondary" onClick={() => vm.place(widget.id, "closed")}>
            {t("show_closed")}
          </Button>
        )}
        <Button size="sm" variant="ghost" disabled={!canManage} onClick={() => setEditing(!editing)}>
          {t("edit")}
        </Button>
        <Button
          size="sm"
          variant="danger"
          disabled={!canManage}
          busy={busy}
          onClick={() => setConfirming(true)}
        >
          {t("remove")}
        </Button>
      </div>
      {confirming && (
        <div className={styles.confirm} role="group" aria-label={t("remove")}>
          <span>{t("remove_confirm", { name: widget.label })}</span>
          <Button size="sm" variant="secondary" onClick={() => setConfirming(false)}>
            {t("cancel")}
          </Button>
          <Button
            size="sm"
            variant="danger"
            busy={busy}
            onClick={() => {
              setConfirming(false);
              void run(() => vm.remove(widget));
            }}
          >
            {t("remove_yes")}
          </Button>
        </div>
      )}
      {error !== null && (
        <p role="alert" className={styles.error}>
          {error}
        </p>
      )}
      {editing && (
        <WidgetForm
          title={t("edit_title")}
          submit={t("save")}
          initial={{ name: widget.definition.name ?? "", type: widget.type, url: widget.definition.url }}
          disabled={!canManage}
          onSubmit={async (form: FormValue) => {
            await vm.edit(widget, form);
            setEditing(false);
          }}
        />
      )}
    </li>
  );
}

export function AppsPanel({ vm }: { vm: RoomWidgetsViewModel }): React.JSX.Element {
  const t = useT("widgets");
  const widgets = useObservable(vm.widgets);
  const canManage = useObservable(vm.canManage);
  return (
    <div className={styles.panel} data-testid="apps-panel">
      <h3 className={styles.panelTitle}>{t("panel_title")}</h3>
      {widgets.length === 0 ? (
        <p className={styles.hint}>{t("none")}</p>
      ) : (
        <ul className={styles.rows}>
          {widgets.map((w) => (
            <WidgetRow key={w.id} vm={vm} widget={w} canManage={canManage} />
          ))}
        </ul>
      )}
      {!canManage && (
        <p className={styles.hint} data-testid="widgets-need-level">
          {t("needs_level", { level: vm.requiredLevel() })}
        </p>
      )}
      <WidgetForm
        title={t("add_title")}
        submit={t("add")}
        initial={{ name: "", type: "m.custom", url: "" }}
        disabled={!canManage}
        clearOnSubmit
        onSubmit={async (form) => {
          await vm.add(form);
        }}
      />
    </div>
  );
}
