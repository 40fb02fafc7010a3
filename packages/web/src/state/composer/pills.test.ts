/**
 * Mention pills in the composer's text: where they sit, how the backdrop
 * splits the text, and Backspace/Delete at a pill's edge taking it whole.
 */
import { describe, expect, it } from "vitest";
import { deletePillAt, pillsOf, segmentsOf } from "./pills";

const bob = { label: "Bob", target: "@bob:x" };
const bobby = { label: "Bobby Tables", target: "@bobby:x" };
const lounge = { label: "#lounge:x", target: "#lounge:x" };

describe("pillsOf", () => {
  it("finds each mention's first occurrence, in text order, without overlaps", () => {
    const text = "Bobby Tables and Bob in #lounge:x, Bob again";
    expect(pillsOf(text, [bobby, bob, lounge])).toEqual([
      { start: 0, end: 12, label: "Bobby Tables", target: "@bobby:x" },
      { start: 17, end: 20, label: "Bob", target: "@bob:x" },
      { start: 24, end: 33, label: "#lounge:x", target: "#lounge:x" },
    ]);
    expect(pillsOf("no one here", [bob])).toEqual([]);
  });
});

describe("segmentsOf", () => {
  it("splits the text into plain runs and pills that join back to the text", () => {
    const text = "hi Bob!";
    const segments = segmentsOf(text, pillsOf(text, [bob]));
    expect(segments.map((s) => s.text)).toEqual(["hi ", "Bob", "!"]);
    expect(segments[1]?.pill?.target).toBe("@bob:x");
    expect(segments.map((s) => s.text).join("")).toBe(text);
  });
});

describe("deletePillAt", () => {
  const text = "hi Bob!";
  const pills = pillsOf(text, [bob]);
  it("takes the whole pill on Backspace at its end and Delete at its start", () => {
    expect(deletePillAt(text, pills, 6, "Backspace")).toMatchObject({ text: "hi !", caret: 3 });
    expect(deletePillAt(text, pills, 3, "Delete")).toMatchObject({ text: "hi !", caret: 3 });
  });
  it("leaves other keys positions to the textarea", () => {
    expect(deletePillAt(text, pills, 7, "Backspace")).toBeNull();
    expect(deletePillAt(text, pills, 3, "Backspace")).toBeNull();
    expect(deletePillAt(text, pills, 6, "Delete")).toBeNull();
  });
});
