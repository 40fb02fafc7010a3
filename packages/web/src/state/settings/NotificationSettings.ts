/**
 * The Notifications section over the user's push rules: global toggles that
 * enable or disable the spec's default rules (messages in DMs and group
 * rooms, mentions of the user's name or id, @room, invites, calls), keyword
 * rules (content rules the user adds), and a room's mode (all messages,
 * mentions & keywords, mute) written as the room's own room or override
 * rule. The ruleset comes from GET /pushrules/ and follows m.push_rules
 * account data as it syncs.
 */
import { deletePushRule, getPushRules, setPushRule, setPushRuleEnabled } from "../../sdk";
import type { Client, PushRule, PushRuleKind, PushRuleset } from "../../sdk";
import { ObservableValue } from "../observables";
import type { Scope } from "../Scope";
import { IDLE, runWrite } from "./status";
import type { WriteStatus } from "./status";

/** The global toggles and the default rules each one switches. */
export const GLOBAL_TOGGLES = {
  dm: [
    ["underride", ".m.rule.room_one_to_one"],
    ["underride", ".m.rule.encrypted_room_one_to_one"],
  ],
  group: [
    ["underride", ".m.rule.message"],
    ["underride", ".m.rule.encrypted"],
  ],
  mentions: [
    ["override", ".m.rule.is_user_mention"],
    ["override", ".m.rule.contains_display_name"],
    ["content", ".m.rule.contains_user_name"],
  ],
  room_mention: [
    ["override", ".m.rule.is_room_mention"],
    ["override", ".m.rule.roomnotif"],
  ],
  invites: [["override", ".m.rule.invite_for_me"]],
  calls: [["underride", ".m.rule.call"]],
} as const satisfies Record<string, ReadonlyArray<readonly [PushRuleKind, string]>>;

export type GlobalToggle = keyof typeof GLOBAL_TOGGLES;

/** How a room notifies. */
export type RoomNotificationMode = "all" | "mentions" | "mute";

const KEYWORD_ACTIONS = ["notify", { set_tweak: "sound", value: "default" }, { set_tweak: "highlight" }];

function findRule(ruleset: PushRuleset, kind: PushRuleKind, ruleId: string): PushRule | undefined {
  return ruleset[kind]?.find((r) => r.rule_id === ruleId);
}

/** Whether a toggle is on: any of its rules that exists is enabled (absent rules count as neither). */
export function toggleState(ruleset: PushRuleset, toggle: GlobalToggle): boolean {
  const rules = GLOBAL_TOGGLES[toggle]
    .map(([kind, id]) => findRule(ruleset, kind, id))
    .filter((r) => r !== undefined);
  return rules.length > 0 && rules.some((r) => r.enabled);
}

/** The user's keywords: enabled-or-not content rules that are not server defaults. */
export function keywordsOf(ruleset: PushRuleset): string[] {
  return (ruleset.content ?? [])
    .filter((r) => !r.default && r.pattern !== undefined)
    .map((r) => r.pattern ?? "");
}

function isSilent(rule: PushRule | undefined): boolean {
  return rule !== undefined && rule.enabled && !rule.actions.includes("notify");
}

/** A room's mode from its override (mute) and room (mentions only) rules. */
export function roomModeOf(ruleset: PushRuleset, roomId: string): RoomNotificationMode {
  if (isSilent(findRule(ruleset, "override", roomId))) return "mute";
  if (isSilent(findRule(ruleset, "room", roomId))) return "mentions";
  return "all";
}

/** The client parts the notification settings use. */
export type PushClient = Pick<Client, "http"> & {
  readonly rooms: Pick<Client["rooms"], "accountData" | "onChange">;
};

export class NotificationSettings {
  readonly ruleset = new ObservableValue<PushRuleset | null>(null);
  readonly status = new ObservableValue<WriteStatus>(IDLE);

  constructor(
    private readonly client: PushClient,
    scope: Scope,
  ) {
    const fromSync = (): void => {
      const global = (
        client.rooms.accountData("m.push_rules")?.content as { global?: PushRuleset } | undefined
      )?.global;
      if (global !== undefined && typeof global === "object") this.ruleset.set(global);
    };
    fromSync();
    scope.add(client.rooms.onChange(fromSync));
  }

  /** Fetches the ruleset from the server. */
  async load(): Promise<void> {
    this.ruleset.set((await getPushRules(this.client.http)).global ?? {});
  }

  private get rules(): PushRuleset {
    return this.ruleset.getSnapshot() ?? {};
  }

  /** Turns a global toggle on or off (every default rule it covers that the server has). */
  setToggle(toggle: GlobalToggle, on: boolean): Promise<boolean> {
    return runWrite(this.status, async () => {
      const present = GLOBAL_TOGGLES[toggle].filter(
        ([kind, id]) => findRule(this.rules, kind, id) !== undefined,
      );
      for (const [kind, id] of present) await setPushRuleEnabled(this.client.http, kind, id, on);
      await this.load();
    });
  }

  /** Adds a keyword that notifies and highlights. */
  addKeyword(keyword: string): Promise<boolean> {
    const word = keyword.trim();
    if (word === "") return Promise.resolve(false);
    return runWrite(this.status, async () => {
      await setPushRule(this.client.http, "content", word, { pattern: word, actions: KEYWORD_ACTIONS });
      await this.load();
    });
  }

  /** Removes a keyword rule. */
  removeKeyword(keyword: string): Promise<boolean> {
    return runWrite(this.status, async () => {
      const rule = (this.rules.content ?? []).find((r) => !r.default && r.pattern === keyword);
      await deletePushRule(this.client.http, "content", rule?.rule_id ?? keyword);
      await this.load();
    });
  }

  /** A room's current mode. */
  roomMode(roomId: string): RoomNotificationMode {
    return roomModeOf(this.rules, roomId);
  }

  /** Sets a room's mode: all removes its rules; mentions adds a silent room rule; mute a silent override. */
  setRoomMode(roomId: string, mode: RoomNotificationMode): Promise<boolean> {
    return runWrite(this.status, async () => {
      const http = this.client.http;
      const drop = async (kind: PushRuleKind): Promise<void> => {
        if (findRule(this.rules, kind, roomId) !== undefined) await deletePushRule(http, kind, roomId);
      };
      if (mode === "mute") {
        await drop("room");
        await setPushRule(http, "override", roomId, {
          actions: [],
          conditions: [{ kind: "event_match", key: "room_id", pattern: roomId }],
        });
      } else {
        await drop("override");
        if (mode === "mentions") await setPushRule(http, "room", roomId, { actions: [] });
        else await drop("room");
      }
      await this.load();
    });
  }
}
