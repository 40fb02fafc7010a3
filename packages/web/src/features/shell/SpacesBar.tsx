/**
 * The spaces bar: Home (every room) and each joined space as its avatar
 * (picture or initial) with its name under it, a tooltip on hover and
 * focus, and the unread badge of all its rooms. A space with sub-spaces
 * has a toggle that shows them nested under it. Each space has a "⋯"
 * options button (also a right click, Shift+F10 or the ContextMenu key on
 * the space) opening the space menu; "+" at the end creates a space.
 * Vertical on wide screens, a horizontal strip on phones. The tooltip is
 * placed fixed, so the bar's own scrolling cannot clip it.
 */
import { useState } from "react";
import { Avatar } from "../../components/Avatar";
import { Badge } from "../../components/Badge";
import { useT } from "../../i18n/useT";
import type { ClientViewModel } from "../../state/ClientViewModel";
import type { SpaceNode } from "../../state/spaces/spaceTree";
import { useObservable } from "../../state/useObservable";
import { SpaceMenu } from "../spaces/SpaceMenu";
import type { MenuAt } from "../spaces/SpaceMenu";
import { useAvatarUrl } from "../timeline/media/useMedia";
import styles from "./SpacesBar.module.css";

interface Tip {
  label: string;
  x: number;
  y: number;
}

/** Where a tooltip for `el` goes: beside it on a vertical bar, under it on the phone strip. */
function tipAt(el: HTMLElement, label: string): Tip {
  const r = el.getBoundingClientRect();
  const bar = el.closest("nav")?.getBoundingClientRect() ?? r;
  const strip = window.matchMedia("(max-width: 720px)").matches;
  return strip
    ? { label, x: r.left, y: bar.bottom + 4 }
    : { label, x: bar.right + 4, y: r.top + r.height / 2 - 12 };
}

export function SpacesBar({ client }: { client: ClientViewModel }): React.JSX.Element {
  const t = useT("shell");
  const s = useT("spaces");
  const vm = client.spaces;
  const tree = useObservable(vm.tree);
  const current = useObservable(vm.current);
  const [tip, setTip] = useState<Tip | null>(null);
  const [menu, setMenu] = useState<MenuAt | null>(null);
  const tipProps = (label: string) => ({
    onMouseEnter: (e: React.MouseEvent<HTMLElement>) => setTip(tipAt(e.currentTarget, label)),
    onMouseLeave: () => setTip(null),
    onFocus: (e: React.FocusEvent<HTMLElement>) => setTip(tipAt(e.currentTarget, label)),
    onBlur: () => setTip(null),
  });
  const homeLabel = tree.home.count > 0 ? s("home_badge", { count: tree.home.count }) : t("home_label");
  return (
    <nav className={styles.bar} aria-label={t("spaces")} data-testid="spaces-bar">
      <div className={styles.entry}>
        <button
          type="button"
          className={`${styles.space} ${current === null ? styles.active : ""}`}
          aria-pressed={current === null}
          aria-label={homeLabel}
          aria-describedby={tip?.label === t("home") ? "spaces-tip" : undefined}
          onClick={() => vm.select(null)}
          {...tipProps(t("home"))}
        >
          <span className={styles.home} aria-hidden="true">
            <HomeGlyph />
          </span>
          <BadgeOf node={{ badge: tree.home }} />
        </button>
        <span className={styles.name} aria-hidden="true">
          {t("home")}
        </span>
      </div>
      {tree.spaces.map((space) => (
        <SpaceItem
          key={space.roomId}
          client={client}
          node={space}
          depth={0}
          current={current}
          tipProps={tipProps}
          tipLabel={tip?.label ?? null}
          onMenu={setMenu}
        />
      ))}
      <div className={styles.entry}>
        <button
          type="button"
          className={`${styles.space} ${styles.create}`}
          aria-label={s("create")}
          onClick={() => setMenu({ kind: "create" })}
          {...tipProps(s("create"))}
        >
          <span aria-hidden="true">+</span>
        </button>
      </div>
      {tip !== null && (
        <span id="spaces-tip" role="tooltip" className={styles.tip} style={{ left: tip.x, top: tip.y }}>
          {tip.label}
        </span>
      )}
      {menu !== null && <SpaceMenu client={client} at={menu} onClose={() => setMenu(null)} />}
    </nav>
  );
}

function HomeGlyph(): React.JSX.Element {
  return (
    <svg viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M3 11 12 3l9 8" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M5 10v10h5v-6h4v6h5V10" strokeLinejoin="round" />
    </svg>
  );
}

function BadgeOf({ node }: { node: Pick<SpaceNode, "badge"> }): React.JSX.Element | null {
  const t = useT("shell");
  const { count, level } = node.badge;
  if (level === "none") return null;
  return (
    <span className={styles.badge} data-testid="space-badge">
      <Badge
        count={count}
        highlight={level === "highlight"}
        label={t(level === "highlight" ? "badge_unread_mentions" : "badge_unread", { count })}
      />
    </span>
  );
}

function SpaceItem({
  client,
  node,
  depth,
  current,
  tipProps,
  tipLabel,
  onMenu,
}: {
  client: ClientViewModel;
  node: SpaceNode;
  depth: number;
  current: string | null;
  tipProps: (label: string) => object;
  tipLabel: string | null;
  onMenu: (at: MenuAt) => void;
}): React.JSX.Element {
  const s = useT("spaces");
  const vm = client.spaces;
  const expanded = useObservable(vm.expanded).has(node.roomId);
  const url = useAvatarUrl(node.avatarUrl);
  const { count, level } = node.badge;
  const label =
    level === "highlight"
      ? s("space_label_mentions", { name: node.name, count })
      : level === "unread"
        ? s("space_label_unread", { name: node.name, count })
        : s("space_label", { name: node.name });
  const openMenu = (el: HTMLElement, x?: number, y?: number): void => {
    const r = el.getBoundingClientRect();
    onMenu({
      kind: "space",
      spaceId: node.roomId,
      name: node.name,
      x: x ?? r.right,
      y: y ?? r.top,
      returnTo: el,
    });
  };
  return (
    <>
      <div
        className={styles.entry}
        style={{ "--depth": depth } as React.CSSProperties}
        data-space={node.roomId}
      >
        <button
          type="button"
          className={`${styles.space} ${current === node.roomId ? styles.active : ""}`}
          aria-pressed={current === node.roomId}
          aria-label={label}
          aria-describedby={tipLabel === node.name ? "spaces-tip" : undefined}
          onClick={() => vm.select(node.roomId)}
          onContextMenu={(e) => {
            e.preventDefault();
            openMenu(e.currentTarget, e.clientX, e.clientY);
          }}
          onKeyDown={(e) => {
            if (e.key === "ContextMenu" || (e.shiftKey && e.key === "F10")) {
              e.preventDefault();
              openMenu(e.currentTarget);
            }
          }}
          {...tipProps(node.name)}
        >
          <Avatar id={node.roomId} name={node.name} url={url} size={depth > 0 ? 30 : 36} square />
          <BadgeOf node={node} />
        </button>
        <span className={styles.name} aria-hidden="true">
          {node.name}
        </span>
        <span className={styles.tools}>
          <button
            type="button"
            className={styles.tool}
            aria-haspopup="menu"
            aria-label={s("options", { name: node.name })}
            onClick={(e) => openMenu(e.currentTarget)}
          >
            ⋯
          </button>
          {node.children.length > 0 && (
            <button
              type="button"
              className={styles.tool}
              aria-expanded={expanded}
              aria-label={s(expanded ? "collapse" : "expand", { name: node.name })}
              onClick={() => vm.toggle(node.roomId)}
            >
              <span aria-hidden="true">{expanded ? "▾" : "▸"}</span>
            </button>
          )}
        </span>
      </div>
      {expanded &&
        node.children.map((child) => (
          <SpaceItem
            key={child.roomId}
            client={client}
            node={child}
            depth={depth + 1}
            current={current}
            tipProps={tipProps}
            tipLabel={tipLabel}
            onMenu={onMenu}
          />
        ))}
    </>
  );
}
