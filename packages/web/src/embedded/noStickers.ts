/**
 * The embedded page's sticker button: none. The app's (features/widgets/
 * StickerButton.tsx) shows only when the app's account widgets are there
 * (WidgetsContext), which the embedded page never provides (the host owns
 * its sticker picker); vite.embedded.config.ts resolves the composer's
 * import here, so the page does not carry the widget definition code.
 */

/** Renders nothing, as the app's button does without account widgets. */
export function StickerButton(_props: { roomId: string }): null {
  return null;
}
