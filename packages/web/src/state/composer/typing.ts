/**
 * Typing notices for the composer: on while the user types a message (not a
 * command), off after a quiet spell, when the text empties, on send and on
 * blur. The SDK's TypingService renews the notice while it is on.
 */

export class TypingNotifier {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private on = false;

  constructor(
    private readonly setTyping: (typing: boolean) => Promise<unknown>,
    private readonly idleMs = 10_000,
  ) {}

  /** The text changed. */
  update(text: string): void {
    if (text === "" || text.startsWith("/")) {
      this.stop();
      return;
    }
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.stop(), this.idleMs);
    if (this.on) return;
    this.on = true;
    this.setTyping(true).catch(() => (this.on = false));
  }

  /** Typing stops (send, blur, idle, empty). */
  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.on) return;
    this.on = false;
    this.setTyping(false).catch(() => undefined);
  }
}
