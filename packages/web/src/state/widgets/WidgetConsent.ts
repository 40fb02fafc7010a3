/**
 * The user's remembered widget choices: which capabilities were granted or
 * refused per (widget id, room id), and the OpenID answer ("always" or
 * "block"; "once" is not remembered) per (widget id, room id). Kept in
 * localStorage under the account's user id, like the app's other
 * per-device settings (state/settings, calls/CallSettings): a choice
 * belongs to this browser, survives a reload, and never leaves the device.
 *
 * Ids come from room state anyone in the room can write, so they are data:
 * everything is held in Maps and stored as arrays of pairs, never as object
 * keys ("__proto__" is a widget id like any other).
 */
import { describeCapability } from "./capabilityWords";

export { describeCapability } from "./capabilityWords";

/** The user's answer to an OpenID request. */
export type OpenIdChoice = "once" | "always" | "block";

/** What is remembered of an OpenID answer ("once" is answered and forgotten). */
export type RememberedOpenId = "always" | "block";

/** The storage consent lives in (window.localStorage in the app). */
export interface ConsentStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** The storage key for one account's choices. */
export function consentStorageKey(userId: string): string {
  return `lattice.widgets.consent:${userId}`;
}

/** The remembered capability decisions of one widget in one room. */
export type CapabilityDecisions = ReadonlyMap<string, boolean>;

type ScopeKey = string;

function scopeKey(widgetId: string, roomId: string | null): ScopeKey {
  // JSON of a pair: no separator a hostile id could forge.
  return JSON.stringify([widgetId, roomId]);
}

interface StoredV1 {
  v: 1;
  caps: [ScopeKey, [string, boolean][]][];
  openId: [ScopeKey, RememberedOpenId][];
}

function isPairList(value: unknown): value is unknown[][] {
  return Array.isArray(value) && value.every((e) => Array.isArray(e) && e.length === 2);
}

/** The remembered choices of one account. */
export class WidgetConsent {
  private readonly caps = new Map<ScopeKey, Map<string, boolean>>();
  private readonly openIds = new Map<ScopeKey, RememberedOpenId>();
  private readonly key: string;

  /** `storage` undefined keeps choices for this page only (tests, private windows). */
  constructor(
    private readonly storage: ConsentStorage | undefined,
    userId: string,
  ) {
    this.key = consentStorageKey(userId);
    this.load();
  }

  /** Plain words for a capability (the dialog shows these). */
  describe(cap: string): string {
    return describeCapability(cap);
  }

  /** The remembered decisions for (widget, room); empty when none. */
  capabilityDecisions(widgetId: string, roomId: string | null): CapabilityDecisions {
    return new Map(this.caps.get(scopeKey(widgetId, roomId)) ?? []);
  }

  /**
   * The granted set when every requested capability has a remembered
   * decision (no need to ask), else null.
   */
  rememberedGrant(widgetId: string, roomId: string | null, requested: Iterable<string>): Set<string> | null {
    const known = this.caps.get(scopeKey(widgetId, roomId));
    if (!known) return null;
    const granted = new Set<string>();
    for (const cap of requested) {
      const decision = known.get(cap);
      if (decision === undefined) return null;
      if (decision) granted.add(cap);
    }
    return granted;
  }

  /** Remembers the user's answer: each requested capability granted or refused. */
  rememberCapabilities(
    widgetId: string,
    roomId: string | null,
    requested: Iterable<string>,
    granted: ReadonlySet<string>,
  ): void {
    const k = scopeKey(widgetId, roomId);
    const known = this.caps.get(k) ?? new Map<string, boolean>();
    for (const cap of requested) known.set(cap, granted.has(cap));
    this.caps.set(k, known);
    this.save();
  }

  /** The remembered OpenID answer for (widget, room), or null (ask). */
  openIdChoice(widgetId: string, roomId: string | null): RememberedOpenId | null {
    return this.openIds.get(scopeKey(widgetId, roomId)) ?? null;
  }

  /** Records an OpenID answer; "once" is not remembered (and clears nothing). */
  rememberOpenId(widgetId: string, roomId: string | null, choice: OpenIdChoice): void {
    if (choice === "once") return;
    this.openIds.set(scopeKey(widgetId, roomId), choice);
    this.save();
  }

  /** Forgets every choice for (widget, room) (the widget was removed, or the user revoked it). */
  forget(widgetId: string, roomId: string | null): void {
    const k = scopeKey(widgetId, roomId);
    this.caps.delete(k);
    this.openIds.delete(k);
    this.save();
  }

  private load(): void {
    let raw: string | null;
    try {
      raw = this.storage?.getItem(this.key) ?? null;
    } catch {
      return; // blocked storage: nothing remembered
    }
    if (raw === null) return;
    let doc: unknown;
    try {
      doc = JSON.parse(raw);
    } catch {
      return; // a damaged entry: ask again
    }
    if (typeof doc !== "object" || doc === null) return;
    const { caps, openId } = doc as Partial<Record<string, unknown>>;
    if (isPairList(caps)) {
      for (const [k, list] of caps) {
        if (typeof k !== "string" || !isPairList(list)) continue;
        const m = new Map<string, boolean>();
        for (const [cap, ok] of list) if (typeof cap === "string" && typeof ok === "boolean") m.set(cap, ok);
        this.caps.set(k, m);
      }
    }
    if (isPairList(openId)) {
      for (const [k, choice] of openId) {
        if (typeof k === "string" && (choice === "always" || choice === "block")) this.openIds.set(k, choice);
      }
    }
  }

  private save(): void {
    const doc: StoredV1 = {
      v: 1,
      caps: [...this.caps].map(([k, m]) => [k, [...m]]),
      openId: [...this.openIds],
    };
    try {
      this.storage?.setItem(this.key, JSON.stringify(doc));
    } catch {
      // Storage full or blocked: the choice holds for this page only.
    }
  }
}
