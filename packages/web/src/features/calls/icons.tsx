/**
 * The call controls' line icons (the design system's iconProps: 18 px,
 * text colour, hidden from assistive technology; each button carries its
 * own label).
 */
import { iconProps } from "../../components/icons";

export function PhoneIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <path d="M22 16.9v3a2 2 0 0 1-2.2 2 19.8 19.8 0 0 1-8.6-3.1 19.5 19.5 0 0 1-6-6A19.8 19.8 0 0 1 2.1 4.2 2 2 0 0 1 4.1 2h3a2 2 0 0 1 2 1.7c.1.9.4 1.8.7 2.7a2 2 0 0 1-.5 2.1L8 9.8a16 16 0 0 0 6 6l1.3-1.3a2 2 0 0 1 2.1-.5c.9.3 1.8.6 2.7.7a2 2 0 0 1 1.7 2Z" />
    </svg>
  );
}

export function HangUpIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <path d="M3.5 14.5c5-4.7 12-4.7 17 0l-2 2.5-3-1.3v-2.4a10 10 0 0 0-7 0v2.4l-3 1.3Z" />
    </svg>
  );
}

export function VideoIcon({ off = false }: { off?: boolean }): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <rect x="2" y="6" width="14" height="12" rx="2" />
      <path d="m16 10 6-3v10l-6-3" />
      {off && <path d="M2 2l20 20" />}
    </svg>
  );
}

export function MicIcon({ off = false }: { off?: boolean }): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <rect x="9" y="2" width="6" height="12" rx="3" />
      <path d="M5 10a7 7 0 0 0 14 0M12 17v5" />
      {off && <path d="M3 3l18 18" />}
    </svg>
  );
}

export function ScreenIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <rect x="2" y="3" width="20" height="14" rx="2" />
      <path d="M8 21h8M12 17v4" />
    </svg>
  );
}

export function PauseIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      <path d="M9 5v14M15 5v14" />
    </svg>
  );
}

export function DialpadIcon(): React.JSX.Element {
  return (
    <svg {...iconProps}>
      {[5, 12, 19].flatMap((y) => [5, 12, 19].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r="1.2" />))}
    </svg>
  );
}
