/**
 * The prompt shown in the main pane when a link or the URL names a room
 * the user is not in: the room's summary (name, topic, members, join rule,
 * from the SDK's room summary, which works for rooms one is not in), Join,
 * or Ask to join for a knock room. Joining resolves with the room id; the
 * router opens the room once sync brings it in.
 */
import { t } from "../../i18n/i18n";
import type { JoinTarget } from "../../sdk";
import { ObservableValue } from "../observables";
import { describeFailure } from "../rooms/failure";
import type { RoomActionsViewModel } from "../rooms/RoomActionsViewModel";

/** The room as the summary describes it. */
export interface RoomPreview {
  readonly name: string;
  readonly topic?: string;
  readonly members: number;
  readonly joinRule?: string;
  readonly avatarUrl?: string;
}

export type PreviewState =
  | { readonly kind: "loading" }
  | { readonly kind: "ready"; readonly preview: RoomPreview }
  /** No summary (unknown room, server without the API): joining may still work. */
  | { readonly kind: "unavailable" };

/** The joining, the knock sent, or the last failure. */
export interface PromptStatus {
  readonly busy: "join" | "knock" | null;
  readonly error: string | null;
  readonly knocked: boolean;
}

export type PromptActions = Pick<RoomActionsViewModel, "join" | "knock" | "preview">;

export class JoinPromptViewModel {
  readonly preview = new ObservableValue<PreviewState>({ kind: "loading" });
  readonly status = new ObservableValue<PromptStatus>({ busy: null, error: null, knocked: false });

  constructor(
    readonly target: JoinTarget,
    private readonly actions: PromptActions,
    /** Called with the joined room's id. */
    private readonly onJoined: (roomId: string) => void,
  ) {}

  /** Loads the room's summary. */
  async load(): Promise<void> {
    try {
      const s = await this.actions.preview(this.target);
      this.preview.set({
        kind: "ready",
        preview: {
          name: s.name ?? s.canonical_alias ?? this.target.roomIdOrAlias,
          members: s.num_joined_members,
          ...(s.topic !== undefined ? { topic: s.topic } : {}),
          ...(s.join_rule !== undefined ? { joinRule: s.join_rule } : {}),
          ...(s.avatar_url !== undefined ? { avatarUrl: s.avatar_url } : {}),
        },
      });
    } catch {
      this.preview.set({ kind: "unavailable" });
    }
  }

  /** Whether the room takes knocks rather than joins. */
  get knockOnly(): boolean {
    const p = this.preview.getSnapshot();
    return (
      p.kind === "ready" && (p.preview.joinRule === "knock" || p.preview.joinRule === "knock_restricted")
    );
  }

  async join(): Promise<boolean> {
    this.status.set({ busy: "join", error: null, knocked: false });
    try {
      const roomId = await this.actions.join(this.target);
      this.status.set({ busy: null, error: null, knocked: false });
      this.onJoined(roomId);
      return true;
    } catch (err) {
      this.status.set({ busy: null, error: describeFailure(err), knocked: false });
      return false;
    }
  }

  async knock(reason?: string): Promise<boolean> {
    this.status.set({ busy: "knock", error: null, knocked: false });
    try {
      await this.actions.knock(this.target, reason);
      this.status.set({ busy: null, error: null, knocked: true });
      return true;
    } catch (err) {
      this.status.set({ busy: null, error: describeFailure(err), knocked: false });
      return false;
    }
  }

  /** The title while the summary loads or is missing. */
  get fallbackName(): string {
    return this.target.roomIdOrAlias || t("navigation", "prompt_unknown_room");
  }
}
