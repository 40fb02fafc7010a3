/**
 * The timeline's line icons (inline SVG in the design system's style, see
 * components/icons.tsx): the message toolbar's react, reply, thread, edit,
 * delete and more, and the lightbox's zoom, fit, download and close. Drawn
 * as paths, they show on a system with no emoji or symbol font, where the
 * characters they replace ("🗑", "✎", "⌥") were empty boxes.
 */
import { iconProps } from "../../components/icons";

/** A smiling face with a plus: add a reaction. */
/** "More reactions": a face and a plus, at the end of the quick-reaction row. */
export function MoreReactionsIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <circle cx="11" cy="12" r="8" />
      <path d="M7.5 14s1.3 1.7 3.5 1.7 3.5-1.7 3.5-1.7M8.5 9.5h.01M13.5 9.5h.01" />
      <path d="M20 3v5M17.5 5.5h5" />
    </svg>
  );
}

export function ReactIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <path d="M20.9 11a9 9 0 1 1-7.9-7.9" />
      <path d="M8 14s1.5 2 4 2 4-2 4-2M9 9h.01M15 9h.01M19 2v6M16 5h6" />
    </svg>
  );
}

/** A curved arrow back: reply. */
export function ReplyIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <path d="M9 17 4 12l5-5" />
      <path d="M20 18v-2a4 4 0 0 0-4-4H4" />
    </svg>
  );
}

/** A speech bubble with lines: reply in a thread. */
export function ThreadIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" />
      <path d="M8 8h8M8 12h5" />
    </svg>
  );
}

/** A pencil: edit. */
export function EditIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <path d="M12 20h9" />
      <path d="M16.5 3.5a2.1 2.1 0 0 1 3 3L7 19l-4 1 1-4z" />
    </svg>
  );
}

/** A bin: delete (remove the message). */
export function TrashIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <path d="M3 6h18M8 6V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2M19 6l-1 14a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2L5 6" />
      <path d="M10 11v6M14 11v6" />
    </svg>
  );
}

/** Three dots: more options. */
export function MoreIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <circle cx="5" cy="12" r="1" />
      <circle cx="12" cy="12" r="1" />
      <circle cx="19" cy="12" r="1" />
    </svg>
  );
}

/** A magnifier with plus (in) or minus (out): zoom. */
export function ZoomIcon({ dir }: { dir: "in" | "out" }): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <circle cx="11" cy="11" r="7" />
      <path d="m21 21-4.3-4.3M8 11h6" />
      {dir === "in" && <path d="M11 8v6" />}
    </svg>
  );
}

/** Four corners: fit to the screen. */
export function FitIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <path d="M8 3H5a2 2 0 0 0-2 2v3M21 8V5a2 2 0 0 0-2-2h-3M3 16v3a2 2 0 0 0 2 2h3M16 21h3a2 2 0 0 0 2-2v-3" />
    </svg>
  );
}

/** An arrow into a tray: download. */
export function DownloadIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <path d="M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M7 10l5 5 5-5M12 15V3" />
    </svg>
  );
}

/** A cross: close. */
export function CloseIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <path d="M18 6 6 18M6 6l12 12" />
    </svg>
  );
}
