/**
 * Line icons of the design system (inline SVG, 18 px, drawn in the text
 * colour, hidden from assistive technology: the button around an icon
 * carries the label). They render without an emoji or symbol font:
 * people, gear, search, sun/moon/system (the theme toggle), sign out, back,
 * the message shield, a folder (Files).
 */
/** The attributes every icon's <svg> shares (spread them first). */
export const iconProps = {
  width: 18,
  height: 18,
  viewBox: "0 0 24 24",
  fill: "none",
  stroke: "currentColor",
  strokeWidth: 2,
  strokeLinecap: "round",
  strokeLinejoin: "round",
  "aria-hidden": true,
  focusable: false,
} as const;

/** Two people: the member list. */
export function PeopleIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M2.5 20a6.5 6.5 0 0 1 13 0" />
      <path d="M16 4.6a3.5 3.5 0 0 1 0 6.8M18 14a6.5 6.5 0 0 1 3.5 6" />
    </svg>
  );
}

/** A gear: settings. */
export function GearIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <circle cx="12" cy="12" r="3" />
      <path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1Z" />
    </svg>
  );
}

/** A folder: the Files view. */
export function FolderIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <path d="M3 6.5A1.5 1.5 0 0 1 4.5 5H9l2 2.5h8.5A1.5 1.5 0 0 1 21 9v9.5a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 18.5Z" />
    </svg>
  );
}

/** A magnifier: search. */
export function SearchIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </svg>
  );
}

/** A sun: the light theme. */
export function SunIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </svg>
  );
}

/** A crescent moon: the dark theme. */
export function MoonIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <path d="M20.5 14.5A8.5 8.5 0 0 1 9.5 3.5a8.5 8.5 0 1 0 11 11Z" />
    </svg>
  );
}

/** A screen: the theme follows the system. */
export function SystemIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <rect x="3" y="4" width="18" height="12" rx="2" />
      <path d="M8 20h8M12 16v4" />
    </svg>
  );
}

/** A door with an arrow leaving it: sign out. */
export function SignOutIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <path d="M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4" />
      <path d="m16 17 5-5-5-5M21 12H9" />
    </svg>
  );
}

/** A left arrow: back (to the room list, the thread list, the member list). */
export function BackIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <path d="M19 12H5M12 19l-7-7 7-7" />
    </svg>
  );
}

/** A shield (message trust): a tick when verified, an exclamation mark when not, a question mark when unknown. */
export function ShieldIcon({ mark }: { mark: "tick" | "alert" | "unknown" }): React.JSX.Element {
  return (
    <svg {...iconProps} width={14} height={14}>
      <path d="M12 22s8-4 8-10V5l-8-3-8 3v7c0 6 8 10 8 10z" />
      {mark === "tick" && <path d="m9 12 2 2 4-4" />}
      {mark === "alert" && <path d="M12 8v4M12 16h.01" />}
      {mark === "unknown" && <path d="M10 9.5a2 2 0 1 1 2.5 1.9c-.4.2-.5.5-.5.9v.2M12 16h.01" />}
    </svg>
  );
}
