/**
 * Slash commands of the composer: the list the autocomplete offers and the
 * parser that turns "/invite @bob:example.org" into a typed command or a
 * clear error ("Unknown command", "Usage: /invite <user-id>"). Running
 * the room commands goes through the SDK client's services.
 */
import { sendStateEvent } from "../../sdk";

/** A command as the autocomplete and help list show it. */
export interface CommandSpec {
  readonly name: string;
  /** The argument hint, e.g. "<user-id>" (empty when it takes none). */
  readonly args: string;
  /** The i18n key (namespace "composer") of its one-line description. */
  readonly descriptionKey: string;
  /** Whether the argument is required. */
  readonly required: boolean;
}

/** Every command, in the order the autocomplete lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  { name: "me", args: "<message>", descriptionKey: "cmdMe", required: true },
  { name: "shrug", args: "[message]", descriptionKey: "cmdShrug", required: false },
  { name: "topic", args: "<topic>", descriptionKey: "cmdTopic", required: true },
  { name: "invite", args: "<user-id>", descriptionKey: "cmdInvite", required: true },
  { name: "join", args: "<room-alias>", descriptionKey: "cmdJoin", required: true },
  { name: "leave", args: "[reason]", descriptionKey: "cmdLeave", required: false },
  { name: "nick", args: "<display-name>", descriptionKey: "cmdNick", required: true },
];

/** The shrug face, with markdown's underscore escaped so it renders as typed. */
export const SHRUG = "¯\\_(ツ)_/¯";

/** A parsed command. */
export type Command =
  | { kind: "me"; text: string }
  | { kind: "shrug"; text: string }
  | { kind: "topic"; topic: string }
  | { kind: "invite"; userId: string; reason?: string }
  | { kind: "join"; target: string }
  | { kind: "leave"; reason?: string }
  | { kind: "nick"; name: string };

/** An error to show, as an i18n key of namespace "composer" and its variables. */
export interface CommandError {
  readonly key: "unknownCommand" | "usage" | "invalidUserId" | "invalidRoom";
  readonly vars: Record<string, string>;
}

/** What the composer text is: a message, a command, or a command error. */
export type ParsedInput =
  | { kind: "message"; text: string }
  | { kind: "command"; command: Command }
  | { kind: "error"; error: CommandError };

const USER_ID = /^@[^:\s]+:\S+$/;
const ROOM_TARGET = /^[#!][^:\s]+:\S+$/;

/** The usage line of a command ("/invite <user-id>"). */
export function usageOf(name: string): string {
  const spec = COMMANDS.find((c) => c.name === name);
  return spec === undefined ? `/${name}` : `/${spec.name} ${spec.args}`.trim();
}

/** The commands whose name starts with `prefix` (without the slash). */
export function matchCommands(prefix: string): CommandSpec[] {
  const p = prefix.toLowerCase();
  return COMMANDS.filter((c) => c.name.startsWith(p));
}

/**
 * Reads the composer's text: a leading "/" starts a command, "//" sends the
 * rest as a message starting with one slash.
 */
export function parseInput(input: string): ParsedInput {
  if (!input.startsWith("/")) return { kind: "message", text: input };
  if (input.startsWith("//")) return { kind: "message", text: input.slice(1) };
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(input);
  const name = (match?.[1] ?? "").toLowerCase();
  const arg = (match?.[2] ?? "").trim();
  const spec = COMMANDS.find((c) => c.name === name);
  if (spec === undefined)
    return { kind: "error", error: { key: "unknownCommand", vars: { command: `/${name}` } } };
  if (spec.required && arg === "") return usage(name);
  const [first = "", ...rest] = arg.split(/\s+/);
  const restText = rest.join(" ");
  switch (name) {
    case "me":
      return command({ kind: "me", text: arg });
    case "shrug":
      return command({ kind: "shrug", text: arg === "" ? SHRUG : `${SHRUG} ${arg}` });
    case "topic":
      return command({ kind: "topic", topic: arg });
    case "invite":
      if (!USER_ID.test(first))
        return { kind: "error", error: { key: "invalidUserId", vars: { userId: first } } };
      return command({ kind: "invite", userId: first, ...(restText !== "" ? { reason: restText } : {}) });
    case "join":
      if (rest.length > 0 || !ROOM_TARGET.test(first))
        return { kind: "error", error: { key: "invalidRoom", vars: { room: arg } } };
      return command({ kind: "join", target: first });
    case "leave":
      return command({ kind: "leave", ...(arg !== "" ? { reason: arg } : {}) });
    default:
      return command({ kind: "nick", name: arg });
  }
}

function command(c: Command): ParsedInput {
  return { kind: "command", command: c };
}

function usage(name: string): ParsedInput {
  return { kind: "error", error: { key: "usage", vars: { usage: usageOf(name) } } };
}

/** What the room commands act through (the SDK client's services). */
export interface CommandServices {
  http: Parameters<typeof sendStateEvent>[0];
  moderation: {
    invite(roomId: string, userId: string, reason?: string): Promise<void>;
    join(target: string): Promise<string>;
    leave(roomId: string, reason?: string): Promise<void>;
  };
  profile: { setDisplayName(name: string): Promise<void> };
}

/** Runs a command that is not a message (/topic, /invite, /join, /leave, /nick); resolves with a joined room id. */
export async function runRoomCommand(
  command: Exclude<Command, { kind: "me" | "shrug" }>,
  roomId: string,
  services: CommandServices,
): Promise<string | undefined> {
  switch (command.kind) {
    case "topic":
      await sendStateEvent(services.http, roomId, "m.room.topic", { topic: command.topic });
      return undefined;
    case "invite":
      await services.moderation.invite(roomId, command.userId, command.reason);
      return undefined;
    case "join":
      return services.moderation.join(command.target);
    case "leave":
      await services.moderation.leave(roomId, command.reason);
      return undefined;
    case "nick":
      await services.profile.setDisplayName(command.name);
      return undefined;
  }
}
