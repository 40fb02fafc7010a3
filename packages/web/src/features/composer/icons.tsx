/**
 * Small line icons for the composer and threads buttons (inline SVG, so
 * they render without an emoji font and follow the text colour).
 */
import { iconProps as common } from "../../components/icons";

export function PlusIcon(): React.JSX.Element {
  return (
    <svg {...common}>
      <path d="M12 5v14M5 12h14" />
    </svg>
  );
}

export function SmileIcon(): React.JSX.Element {
  return (
    <svg {...common}>
      <circle cx="12" cy="12" r="9" />
      <path d="M8.5 14.5a4.5 4.5 0 0 0 7 0M9 9.5h.01M15 9.5h.01" />
    </svg>
  );
}

export function SendIcon(): React.JSX.Element {
  return (
    <svg {...common}>
      <path d="M4 12 20 4l-6 16-3-7-7-1Z" />
    </svg>
  );
}

export function ThreadIcon(): React.JSX.Element {
  return (
    <svg {...common}>
      <path d="M4 5h16v10H9l-5 4V5Z" />
      <path d="M8 9h8M8 12h5" />
    </svg>
  );
}
