/**
 * The composer's pure parts: markdown (plain body kept, HTML only when
 * formatted, typed HTML escaped, output within our sanitiser's allowlist),
 * slash command parsing and its errors, the autocomplete triggers and
 * ranking, the emoji index, and drafts round-tripping through storage.
 */
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { createSanitiser } from "../../features/timeline/html/sanitise";
import { t } from "../../i18n/i18n";
import { COMMANDS, parseInput, SHRUG } from "./commands";
import { findTrigger, suggestCommands, suggestRooms, suggestUsers } from "./completions";
import { draftKey, loadDraft, saveDraft } from "./drafts";
import { buildIndex, recentEmoji, rememberEmoji } from "./emoji";
import { renderMarkdown } from "./markdown";

class MapStorage {
  readonly data = new Map<string, string>();
  getItem(k: string): string | null {
    return this.data.get(k) ?? null;
  }
  setItem(k: string, v: string): void {
    this.data.set(k, v);
  }
  removeItem(k: string): void {
    this.data.delete(k);
  }
}

describe("markdown", () => {
  it("keeps plain text plain: no formatted_body", async () => {
    expect(await renderMarkdown("hello world")).toEqual({ body: "hello world" });
    expect(await renderMarkdown("two\nlines & <3")).toEqual({ body: "two\nlines & <3" });
  });

  it("formats markdown and keeps the plain body as typed", async () => {
    const out = await renderMarkdown("**bold** and _it_ and `code`");
    expect(out.body).toBe("**bold** and _it_ and `code`");
    expect(out.formattedBody).toBe("<strong>bold</strong> and <em>it</em> and <code>code</code>");
    const block = await renderMarkdown("```js\nlet a = 1 < 2;\n```");
    expect(block.formattedBody).toBe('<pre><code class="language-js">let a = 1 &lt; 2;\n</code></pre>');
    const multi = await renderMarkdown("# Title\n\n- one\n- two");
    expect(multi.formattedBody).toContain("<h1>Title</h1>");
    expect(multi.formattedBody).toContain("<li>one</li>");
  });

  it("escapes HTML the user types instead of passing it through", async () => {
    expect(await renderMarkdown("<b>not bold</b>")).toEqual({ body: "<b>not bold</b>" });
    const mixed = await renderMarkdown("**x** <img src=x onerror=alert(1)> <script>bad()</script>");
    expect(mixed.formattedBody).not.toMatch(/<img|<script/);
    expect(mixed.formattedBody).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(mixed.formattedBody).toContain("&lt;script&gt;");
  });

  it("turns mentions into matrix.to links in the HTML only", async () => {
    const out = await renderMarkdown("hi Bob Builder!", [
      { label: "Bob Builder", href: "https://matrix.to/#/@bob:example.org" },
    ]);
    expect(out.body).toBe("hi Bob Builder!");
    expect(out.formattedBody).toBe('hi <a href="https://matrix.to/#/@bob:example.org">Bob Builder</a>!');
  });

  it("produces HTML our sanitiser's allowlist keeps intact", async () => {
    const win = new JSDOM("<!doctype html><body></body>").window;
    const sanitise = createSanitiser(win);
    const source =
      "# H\n\n**b** _i_ ~~s~~ [l](https://example.org) `c`\n\n> quote\n\n1. one\n2. two\n\n```ts\nx\n```";
    const { formattedBody } = await renderMarkdown(source);
    if (formattedBody === undefined) throw new Error("not formatted");
    const host = win.document.createElement("div");
    host.append(sanitise(formattedBody));
    const normal = win.document.createElement("div");
    normal.innerHTML = formattedBody;
    expect(host.innerHTML).toBe(normal.innerHTML);
    // Images become links (Matrix HTML shows only mxc images).
    const img = await renderMarkdown("![cat](https://example.org/cat.png)");
    expect(img.formattedBody).toBe('<a href="https://example.org/cat.png">cat</a>');
  });
});

describe("slash commands", () => {
  const md = (text: string, msgtype = "m.text") => ({
    kind: "command",
    command: { kind: "message", text, msgtype, format: "markdown" },
  });
  const action = (name: string, rest: Record<string, unknown> = {}) => ({
    kind: "command",
    command: { kind: "action", name, text: "", ...rest },
  });

  it("parses the message commands", () => {
    expect(parseInput("/me waves")).toEqual(md("waves", "m.emote"));
    expect(parseInput("/shrug")).toEqual(md(SHRUG));
    expect(parseInput("/shrug ok")).toEqual(md(`${SHRUG} ok`));
    expect(parseInput("/tableflip")).toEqual(md("(╯°□°）╯︵ ┻━┻"));
    expect(parseInput("/lenny hi")).toEqual(md("( ͡° ͜ʖ ͡°) hi"));
    expect(parseInput("/plain *as typed*")).toEqual({
      kind: "command",
      command: { kind: "message", text: "*as typed*", msgtype: "m.text", format: "plain" },
    });
    expect(parseInput("/html <b>bold</b> &amp; more")).toEqual({
      kind: "command",
      command: { kind: "html", body: "bold & more", html: "<b>bold</b> &amp; more", msgtype: "m.text" },
    });
    expect(parseInput("/spoiler the <end>")).toEqual({
      kind: "command",
      command: {
        kind: "html",
        body: "the <end>",
        html: "<span data-mx-spoiler>the &#60;end&#62;</span>",
        msgtype: "m.text",
      },
    });
    const rainbow = parseInput("/rainbow ab");
    expect(rainbow).toMatchObject({ kind: "command", command: { kind: "html", body: "ab" } });
    expect(JSON.stringify(rainbow)).toContain('<font color=\\"#ff0000\\">a</font>');
    expect(parseInput("/help")).toEqual({ kind: "command", command: { kind: "help" } });
    expect(parseInput("/devtools")).toEqual({ kind: "command", command: { kind: "devtools" } });
  });

  it("parses the action commands with their user, reason and level", () => {
    expect(parseInput("/topic A new topic")).toEqual(action("topic", { text: "A new topic" }));
    expect(parseInput("/invite @bob:ex.org be nice")).toEqual(
      action("invite", { userId: "@bob:ex.org", text: "be nice" }),
    );
    expect(parseInput("/join #lounge:ex.org")).toEqual(action("join", { text: "#lounge:ex.org" }));
    expect(parseInput("/part")).toEqual(action("part"));
    expect(parseInput("/leave")).toEqual(action("leave"));
    expect(parseInput("/nick Bobby")).toEqual(action("nick", { text: "Bobby" }));
    expect(parseInput("/ban @eve:ex.org spam")).toEqual(
      action("ban", { userId: "@eve:ex.org", text: "spam" }),
    );
    expect(parseInput("/op @bob:ex.org")).toEqual(action("op", { userId: "@bob:ex.org", level: 50 }));
    expect(parseInput("/op @bob:ex.org 100")).toEqual(action("op", { userId: "@bob:ex.org", level: 100 }));
    expect(parseInput("/deop @bob:ex.org")).toEqual(action("deop", { userId: "@bob:ex.org" }));
    expect(parseInput("/myavatar mxc://ex.org/abc")).toEqual(
      action("myavatar", { text: "mxc://ex.org/abc" }),
    );
    expect(parseInput("/upgraderoom 11")).toEqual(action("upgraderoom", { text: "11" }));
    expect(parseInput("/converttodm")).toEqual(action("converttodm"));
  });

  it("gives clear errors and lets // send a slash", () => {
    expect(parseInput("/frobnicate")).toEqual({
      kind: "error",
      error: { key: "unknownCommand", vars: { command: "/frobnicate" } },
    });
    expect(parseInput("/invite")).toEqual({
      kind: "error",
      error: { key: "usage", vars: { usage: "/invite <user-id> [reason]" } },
    });
    expect(parseInput("/invite bob")).toMatchObject({ kind: "error", error: { key: "invalidUserId" } });
    expect(parseInput("/join lounge")).toMatchObject({ kind: "error", error: { key: "invalidRoom" } });
    expect(parseInput("/op @bob:ex.org high")).toMatchObject({
      kind: "error",
      error: { key: "invalidLevel" },
    });
    expect(parseInput("/myavatar http://x/y.png")).toMatchObject({
      kind: "error",
      error: { key: "invalidMxc" },
    });
    expect(parseInput("/whois @a:b extra")).toMatchObject({ kind: "error", error: { key: "usage" } });
    expect(parseInput("//not a command")).toEqual({ kind: "message", text: "/not a command" });
    expect(parseInput("plain")).toEqual({ kind: "message", text: "plain" });
  });

  it("has every command Element users know, each with a description", () => {
    const names = COMMANDS.map((c) => c.name);
    for (const name of ELEMENT_COMMANDS) expect(names).toContain(name);
    for (const c of COMMANDS) expect(t("composer", c.descriptionKey)).not.toBe(c.descriptionKey);
  });
});

const ELEMENT_COMMANDS = [
  "me",
  "shrug",
  "tableflip",
  "lenny",
  "plain",
  "html",
  "spoiler",
  "rainbow",
  "topic",
  "roomname",
  "myroomnick",
  "myroomavatar",
  "myavatar",
  "nick",
  "invite",
  "join",
  "part",
  "leave",
  "kick",
  "ban",
  "unban",
  "op",
  "deop",
  "ignore",
  "unignore",
  "converttodm",
  "converttoroom",
  "devtools",
  "upgraderoom",
  "whois",
  "discardsession",
  "query",
  "msg",
  "holdcall",
  "unholdcall",
  "help",
];

describe("autocomplete", () => {
  it("finds the trigger at the caret", () => {
    expect(findTrigger("hi @bo", 6)).toEqual({ kind: "user", query: "bo", start: 3, end: 6 });
    expect(findTrigger("@", 1)).toEqual({ kind: "user", query: "", start: 0, end: 1 });
    expect(findTrigger("see #lou", 8)).toMatchObject({ kind: "room", query: "lou" });
    expect(findTrigger("nice :thu", 9)).toMatchObject({ kind: "emoji", query: "thu" });
    expect(findTrigger("at 12:30", 8)).toBeNull();
    expect(findTrigger("mail a@b", 8)).toBeNull();
    expect(findTrigger("/inv", 4)).toEqual({ kind: "command", query: "inv", start: 0, end: 4 });
    expect(findTrigger("/invite @b", 10)).toMatchObject({ kind: "user", query: "b" });
  });

  it("ranks users by name or id, prefix first, the current user last", () => {
    const members = [
      { userId: "@alice:x", name: "Alice" },
      { userId: "@bob:x", name: "Bob Builder" },
      { userId: "@rob:x", name: "Robert" },
    ];
    expect(suggestUsers(members, "b", "@alice:x").map((s) => s.key)).toEqual(["@bob:x", "@rob:x"]);
    const all = suggestUsers(members, "", "@alice:x");
    expect(all[all.length - 1]?.key).toBe("@alice:x");
    expect(all[0]?.mention).toEqual({ label: "Bob Builder", target: "@bob:x" });
    expect(
      suggestRooms(
        [
          { roomId: "!a", name: "Lounge", alias: "#lounge:x" },
          { roomId: "!b", name: "No alias" },
        ],
        "lo",
      ),
    ).toHaveLength(1);
    expect(suggestCommands("in").map((s) => s.key)).toEqual(["invite"]);
  });

  it("searches emoji by shortcode and keeps recent ones", () => {
    const index = buildIndex(
      [
        { group: 1, hexcode: "1F44D", label: "thumbs up", order: 2, tags: ["yes"], unicode: "👍" },
        { group: 0, hexcode: "1F600", label: "grinning face", order: 1, tags: ["smile"], unicode: "😀" },
        { hexcode: "1F3FB", label: "light skin tone", unicode: "🏻" },
      ],
      { "1F44D": ["+1", "thumbsup"], "1F600": "grinning" },
    );
    expect(index.all.map((e) => e.unicode)).toEqual(["😀", "👍"]);
    expect(index.search("thumbs").map((e) => e.unicode)).toEqual(["👍"]);
    expect(index.search("grin")[0]?.unicode).toBe("😀");
    const storage = new MapStorage();
    rememberEmoji(storage, "👍");
    rememberEmoji(storage, "😀");
    rememberEmoji(storage, "👍");
    expect(recentEmoji(storage)).toEqual(["👍", "😀"]);
  });
});

describe("drafts", () => {
  it("round-trip per user and room, and an empty draft is removed", () => {
    const storage = new MapStorage();
    const key = draftKey("@a:x", "!r:x");
    expect(key).not.toBe(draftKey("@b:x", "!r:x"));
    expect(key).not.toBe(draftKey("@a:x", "!r:x", "$root"));
    const draft = {
      text: "hi Bob",
      mentions: [{ label: "Bob", target: "@bob:x" }],
      mode: { kind: "reply", eventId: "$e" },
    } as const;
    saveDraft(storage, key, draft);
    expect(loadDraft(storage, key)).toEqual(draft);
    saveDraft(storage, key, { text: "", mentions: [], mode: { kind: "normal" } });
    expect(storage.data.has(key)).toBe(false);
    storage.setItem(key, "{not json");
    expect(loadDraft(storage, key)).toBeNull();
  });
});
