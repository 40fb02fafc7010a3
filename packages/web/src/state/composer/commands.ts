/**
 * Slash commands of the composer, the set Element users know: the list the
 * autocomplete and /help show, and the parser that turns
 * "/ban @bob:example.org spam" into a typed command or a clear error
 * ("Unknown command", "Usage: /ban <user-id> [reason]"). Message commands
 * (/me, /shrug, /plain, /html, /spoiler, /rainbow ...) become content the
 * composer sends; the others run through the SDK client (runCommand.ts).
 */

/** How a command reads its argument. */
type ArgKind =
  | "none"
  | "text"
  | "optionalText"
  | "user"
  | "userReason"
  | "userLevel"
  | "room"
  | "optionalRoom"
  | "mxc"
  | "version";

/** A command as the autocomplete and help list show it. */
/** A user-facing error of a command (shown as it is). */
export class CommandFailure extends Error {
  override readonly name = "CommandFailure";
}

export interface CommandSpec {
  readonly name: string;
  /** The argument hint, e.g. "<user-id> [reason]" (empty when it takes none). */
  readonly args: string;
  /** The i18n key (namespace "composer") of its one-line description. */
  readonly descriptionKey: string;
  readonly argKind: ArgKind;
  /** Where /help lists it. */
  readonly group: "messages" | "room" | "moderation" | "account" | "advanced";
}

const spec = (name: string, argKind: ArgKind, args: string, group: CommandSpec["group"]): CommandSpec => ({
  name,
  argKind,
  args,
  group,
  descriptionKey: `cmd_${name}`,
});

/** Every command, in the order the autocomplete and /help list them. */
export const COMMANDS: readonly CommandSpec[] = [
  spec("me", "text", "<message>", "messages"),
  spec("shrug", "optionalText", "[message]", "messages"),
  spec("tableflip", "optionalText", "[message]", "messages"),
  spec("unflip", "optionalText", "[message]", "messages"),
  spec("lenny", "optionalText", "[message]", "messages"),
  spec("plain", "text", "<message>", "messages"),
  spec("html", "text", "<html>", "messages"),
  spec("spoiler", "text", "<message>", "messages"),
  spec("rainbow", "text", "<message>", "messages"),
  spec("rainbowme", "text", "<message>", "messages"),
  spec("msg", "userReason", "<user-id> [message]", "messages"),
  spec("query", "user", "<user-id>", "messages"),
  spec("topic", "text", "<topic>", "room"),
  spec("roomname", "text", "<name>", "room"),
  spec("myroomnick", "text", "<display-name>", "room"),
  spec("myroomavatar", "mxc", "<mxc-url>", "room"),
  spec("invite", "userReason", "<user-id> [reason]", "room"),
  spec("join", "room", "<room-alias>", "room"),
  spec("part", "optionalRoom", "[room-alias]", "room"),
  spec("leave", "optionalText", "[reason]", "room"),
  spec("converttodm", "none", "", "room"),
  spec("converttoroom", "none", "", "room"),
  spec("kick", "userReason", "<user-id> [reason]", "moderation"),
  spec("remove", "userReason", "<user-id> [reason]", "moderation"),
  spec("ban", "userReason", "<user-id> [reason]", "moderation"),
  spec("unban", "userReason", "<user-id> [reason]", "moderation"),
  spec("op", "userLevel", "<user-id> [power-level]", "moderation"),
  spec("deop", "user", "<user-id>", "moderation"),
  spec("nick", "text", "<display-name>", "account"),
  spec("myavatar", "mxc", "<mxc-url>", "account"),
  spec("ignore", "user", "<user-id>", "account"),
  spec("unignore", "user", "<user-id>", "account"),
  spec("whois", "user", "<user-id>", "account"),
  spec("holdcall", "none", "", "advanced"),
  spec("unholdcall", "none", "", "advanced"),
  spec("upgraderoom", "version", "<room-version>", "advanced"),
  spec("discardsession", "none", "", "advanced"),
  spec("devtools", "none", "", "advanced"),
  spec("help", "none", "", "advanced"),
];

/** The faces the message commands put before the text; markdown's special characters escaped. */
export const SHRUG = "¯\\_(ツ)_/¯";
export const TABLEFLIP = "(╯°□°）╯︵ ┻━┻";
export const UNFLIP = "┬──┬ ノ( ゜-゜ノ)";
export const LENNY = "( ͡° ͜ʖ ͡°)";

const FACES: Readonly<Record<string, string>> = {
  shrug: SHRUG,
  tableflip: TABLEFLIP,
  unflip: UNFLIP,
  lenny: LENNY,
};

/** The commands that run through the client (not message content). */
export type ActionName =
  | "topic"
  | "roomname"
  | "myroomnick"
  | "myroomavatar"
  | "invite"
  | "join"
  | "part"
  | "leave"
  | "converttodm"
  | "converttoroom"
  | "kick"
  | "remove"
  | "ban"
  | "unban"
  | "op"
  | "deop"
  | "nick"
  | "myavatar"
  | "ignore"
  | "unignore"
  | "whois"
  | "holdcall"
  | "unholdcall"
  | "upgraderoom"
  | "discardsession"
  | "msg"
  | "query";

/** A parsed command. */
export type Command =
  /** Text to send: markdown (with mentions) or as typed. */
  | { kind: "message"; text: string; msgtype: "m.text" | "m.emote"; format: "markdown" | "plain" }
  /** Ready-made HTML (/html, /spoiler, /rainbow) with its plain-text body. */
  | { kind: "html"; body: string; html: string; msgtype: "m.text" | "m.emote" }
  /** A command acting through the client; `text` is the argument after any user id. */
  | { kind: "action"; name: ActionName; userId?: string; text: string; level?: number }
  | { kind: "help" }
  | { kind: "devtools" };

/** An error to show, as an i18n key of namespace "composer" and its variables. */
export interface CommandError {
  readonly key: "unknownCommand" | "usage" | "invalidUserId" | "invalidRoom" | "invalidMxc" | "invalidLevel";
  readonly vars: Record<string, string>;
}

/** What the composer text is: a message, a command, or a command error. */
export type ParsedInput =
  | { kind: "message"; text: string }
  | { kind: "command"; command: Command }
  | { kind: "error"; error: CommandError };

const USER_ID = /^@[^:\s]+:\S+$/;
const ROOM_TARGET = /^[#!][^:\s]+:\S+$/;
const MXC = /^mxc:\/\/[^/\s]+\/\S+$/;

/** The usage line of a command ("/invite <user-id> [reason]"). */
export function usageOf(name: string): string {
  const found = COMMANDS.find((c) => c.name === name);
  return found === undefined ? `/${name}` : `/${found.name} ${found.args}`.trim();
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
  const found = COMMANDS.find((c) => c.name === name);
  if (found === undefined)
    return { kind: "error", error: { key: "unknownCommand", vars: { command: `/${name}` } } };
  const checked = checkArg(found, arg);
  if ("key" in checked) return { kind: "error", error: checked };
  return { kind: "command", command: commandOf(name, arg, checked) };
}

interface Checked {
  userId?: string;
  text: string;
  level?: number;
}

/** Validates the argument against the command's kind. */
function checkArg(c: CommandSpec, arg: string): Checked | CommandError {
  const usage = { key: "usage", vars: { usage: usageOf(c.name) } } as const;
  const first = arg.split(/\s+/)[0] ?? "";
  const rest = arg.slice(first.length).trim();
  switch (c.argKind) {
    case "none":
      return { text: "" };
    case "optionalText":
      return { text: arg };
    case "text":
      return arg === "" ? usage : { text: arg };
    case "user":
    case "userReason":
    case "userLevel": {
      if (first === "") return usage;
      if (!USER_ID.test(first))
        return { key: "invalidUserId", vars: { userId: first, usage: usageOf(c.name) } };
      if (c.argKind === "user" && rest !== "") return usage;
      if (c.argKind === "userLevel") {
        if (rest === "") return { userId: first, text: "", level: 50 };
        const level = Number(rest);
        if (!/^-?\d+$/.test(rest) || !Number.isSafeInteger(level))
          return { key: "invalidLevel", vars: { level: rest, usage: usageOf(c.name) } };
        return { userId: first, text: "", level };
      }
      return { userId: first, text: rest };
    }
    case "room":
    case "optionalRoom":
      if (arg === "") return c.argKind === "room" ? usage : { text: "" };
      if (!ROOM_TARGET.test(first))
        return { key: "invalidRoom", vars: { room: first, usage: usageOf(c.name) } };
      return { text: first };
    case "mxc":
      if (arg === "") return usage;
      return MXC.test(arg)
        ? { text: arg }
        : { key: "invalidMxc", vars: { url: arg, usage: usageOf(c.name) } };
    case "version":
      return /^[A-Za-z0-9.-]{1,32}$/.test(arg) ? { text: arg } : usage;
  }
}

function commandOf(name: string, arg: string, checked: Checked): Command {
  const face = FACES[name];
  if (face !== undefined)
    return {
      kind: "message",
      text: arg === "" ? face : `${face} ${arg}`,
      msgtype: "m.text",
      format: "markdown",
    };
  switch (name) {
    case "me":
      return { kind: "message", text: arg, msgtype: "m.emote", format: "markdown" };
    case "plain":
      return { kind: "message", text: arg, msgtype: "m.text", format: "plain" };
    case "html":
      return { kind: "html", body: textOfHtml(arg), html: arg, msgtype: "m.text" };
    case "spoiler":
      return {
        kind: "html",
        body: arg,
        html: `<span data-mx-spoiler>${escapeHtml(arg)}</span>`,
        msgtype: "m.text",
      };
    case "rainbow":
    case "rainbowme":
      return {
        kind: "html",
        body: arg,
        html: rainbow(arg),
        msgtype: name === "rainbow" ? "m.text" : "m.emote",
      };
    case "help":
      return { kind: "help" };
    case "devtools":
      return { kind: "devtools" };
    default:
      return {
        kind: "action",
        name: name as ActionName,
        text: checked.text,
        ...(checked.userId !== undefined ? { userId: checked.userId } : {}),
        ...(checked.level !== undefined ? { level: checked.level } : {}),
      };
  }
}

/** Escapes text for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The plain text of an HTML fragment (/html's body): tags dropped, the common entities read. */
export function textOfHtml(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

/** Each character in a colour of the rainbow (hue by position), as `<font color>` the spec allows. */
export function rainbow(text: string): string {
  const chars = [...text];
  return chars
    .map((ch, i) => {
      if (/\s/.test(ch)) return ch;
      const hue = Math.round((i / Math.max(1, chars.length)) * 360);
      return `<font color="${hslToHex(hue)}">${escapeHtml(ch)}</font>`;
    })
    .join("");
}

function hslToHex(hue: number): string {
  // Saturation 1, lightness 0.5: the pure hue.
  const f = (n: number): string => {
    const k = (n + hue / 30) % 12;
    const v = 0.5 - 0.5 * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(v * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${f(0)}${f(8)}${f(4)}`;
}
