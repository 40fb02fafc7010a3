/**
 * The SAS emoji table against the specification's (data-definitions/
 * sas-emoji.json): 64 distinct entries in order, spot-checked names, and
 * out-of-range indexes refused.
 */
import { describe, expect, it } from "vitest";
import { SAS_EMOJI, sasEmoji } from "../../../src/crypto/verification/emoji";

/** The specification's table (sas-emoji.json), written out: number n is entry n. */
const SPEC_TABLE = [
  "🐶 Dog",
  "🐱 Cat",
  "🦁 Lion",
  "🐎 Horse",
  "🦄 Unicorn",
  "🐷 Pig",
  "🐘 Elephant",
  "🐰 Rabbit",
  "🐼 Panda",
  "🐓 Rooster",
  "🐧 Penguin",
  "🐢 Turtle",
  "🐟 Fish",
  "🐙 Octopus",
  "🦋 Butterfly",
  "🌷 Flower",
  "🌳 Tree",
  "🌵 Cactus",
  "🍄 Mushroom",
  "🌏 Globe",
  "🌙 Moon",
  "☁️ Cloud",
  "🔥 Fire",
  "🍌 Banana",
  "🍎 Apple",
  "🍓 Strawberry",
  "🌽 Corn",
  "🍕 Pizza",
  "🎂 Cake",
  "❤️ Heart",
  "😀 Smiley",
  "🤖 Robot",
  "🎩 Hat",
  "👓 Glasses",
  "🔧 Spanner",
  "🎅 Santa",
  "👍 Thumbs Up",
  "☂️ Umbrella",
  "⌛ Hourglass",
  "⏰ Clock",
  "🎁 Gift",
  "💡 Light Bulb",
  "📕 Book",
  "✏️ Pencil",
  "📎 Paperclip",
  "✂️ Scissors",
  "🔒 Lock",
  "🔑 Key",
  "🔨 Hammer",
  "☎️ Telephone",
  "🏁 Flag",
  "🚂 Train",
  "🚲 Bicycle",
  "✈️ Aeroplane",
  "🚀 Rocket",
  "🏆 Trophy",
  "⚽ Ball",
  "🎸 Guitar",
  "🎺 Trumpet",
  "🔔 Bell",
  "⚓ Anchor",
  "🎧 Headphones",
  "📁 Folder",
  "📌 Pin",
];

describe("SAS emoji table", () => {
  it("has the specification's 64 distinct entries in order", () => {
    expect(SAS_EMOJI).toHaveLength(64);
    expect(new Set(SAS_EMOJI.map((e) => e.emoji)).size).toBe(64);
    expect(new Set(SAS_EMOJI.map((e) => e.name)).size).toBe(64);
    // Each number maps to the specification's entry (not to the table's own order).
    const looked = Array.from({ length: 64 }, (_, n) => sasEmoji(n));
    expect(looked.map((e) => `${e.emoji} ${e.name}`)).toEqual(SPEC_TABLE);
    expect(looked.map((e) => e.index)).toEqual(Array.from({ length: 64 }, (_, n) => n));
    expect(SAS_EMOJI.map((e) => `${e.emoji} ${e.name}`)).toEqual(SPEC_TABLE);
    expect(sasEmoji(0)).toEqual({ index: 0, emoji: "🐶", name: "Dog" });
    expect(sasEmoji(21)).toEqual({ index: 21, emoji: "☁️", name: "Cloud" });
    expect(sasEmoji(36)).toEqual({ index: 36, emoji: "👍", name: "Thumbs Up" });
    expect(sasEmoji(41)).toEqual({ index: 41, emoji: "💡", name: "Light Bulb" });
    expect(sasEmoji(53)).toEqual({ index: 53, emoji: "✈️", name: "Aeroplane" });
    expect(sasEmoji(63)).toEqual({ index: 63, emoji: "📌", name: "Pin" });
  });

  it("refuses indexes outside 0..63", () => {
    expect(() => sasEmoji(64)).toThrow(RangeError);
    expect(() => sasEmoji(-1)).toThrow(RangeError);
    expect(() => sasEmoji(1.5)).toThrow(RangeError);
  });
});
