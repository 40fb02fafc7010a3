/**
 * ObservableList (util/observable-list.ts): snapshots are frozen and never
 * change afterwards, a batch notifies once, and replaying the diffs on a
 * copy always gives the new snapshot (fast-check over random operations).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ObservableList, applyDiffs } from "../../../src/util/observable-list";
import type { ListDiff } from "../../../src/util/observable-list";

describe("ObservableList", () => {
  it("keeps old snapshots intact and notifies once per batch", () => {
    const list = new ObservableList<number>([1, 2]);
    const first = list.getSnapshot();
    const calls: ListDiff<number>[][] = [];
    const off = list.subscribe((_s, d) => calls.push([...d]));
    list.batch(() => {
      list.append(3);
      list.remove(0);
      list.update(0, 20);
    });
    expect(first).toEqual([1, 2]);
    expect(Object.isFrozen(list.getSnapshot())).toBe(true);
    expect(list.getSnapshot()).toEqual([20, 3]);
    expect(calls).toEqual([
      [
        { type: "insert", index: 2, value: 3 },
        { type: "remove", index: 0 },
        { type: "update", index: 0, value: 20 },
      ],
    ]);
    off();
    list.reset([7]);
    expect(calls.length).toBe(1);
    expect(() => list.remove(5)).toThrow(RangeError);
    expect(() => list.insert(-1, 0)).toThrow(RangeError);
  });

  it("diffs replayed on a copy always equal the snapshot", () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), value: fc.integer() }),
      fc.record({ kind: fc.constant("remove" as const), at: fc.nat() }),
      fc.record({ kind: fc.constant("update" as const), at: fc.nat(), value: fc.integer() }),
      fc.record({ kind: fc.constant("reset" as const), values: fc.array(fc.integer(), { maxLength: 5 }) }),
    );
    fc.assert(
      fc.property(fc.array(fc.array(op, { maxLength: 6 }), { maxLength: 10 }), (batches) => {
        const list = new ObservableList<number>();
        let copy: number[] = [];
        list.subscribe((_s, diffs) => {
          copy = applyDiffs(copy, diffs);
        });
        for (const ops of batches) {
          list.batch(() => {
            for (const o of ops) {
              const n = list.length;
              if (o.kind === "insert") list.insert(o.at % (n + 1), o.value);
              else if (o.kind === "remove" && n > 0) list.remove(o.at % n);
              else if (o.kind === "update" && n > 0) list.update(o.at % n, o.value);
              else if (o.kind === "reset") list.reset(o.values);
            }
          });
          expect(copy).toEqual(list.getSnapshot());
        }
      }),
    );
  });
});
