/**
 * The SAS emoji table against the specification's (data-definitions/
 * sas-emoji.json): 64 distinct entries in order, spot-checked names, and
 * out-of-range indexes refused.
 */
import { describe, expect, it } from "vitest";
import { SAS_EMOJI, sasEmoji } from "../../../src/crypto/verification/emoji";

describe("SAS emoji table", () => {
  it("has the specification's 64 distinct entries in order", () => {
    expect(SAS_EMOJI).toHaveLength(64);
    expect(new Set(SAS_EMOJI.map((e) => e.emoji)).size).toBe(64);
    expect(new Set(SAS_EMOJI.map((e) => e.name)).size).toBe(64);
    SAS_EMOJI.forEach((e, i) => expect(e.index).toBe(i));
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
