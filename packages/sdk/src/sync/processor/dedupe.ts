/**
 * De-duplication against the accumulated snapshot: a timeline event the
 * accumulator already keeps has been emitted (in this run or as part of the
 * restored snapshot), so it is left out of the emitted batch. This is what
 * lets a restart continue from the last saved token, or a batch be fetched
 * again, without a subscriber seeing an event twice.
 */
import type { SyncAccumulator } from "../accumulator/SyncAccumulator";
import type { ParsedSync, ParsedTimeline } from "../validate/types";

/** A copy of `batch` without timeline events the accumulator already holds. Rooms are shallow-copied only when changed. */
export function withoutKnownEvents(batch: ParsedSync, acc: SyncAccumulator): ParsedSync {
  let join = batch.rooms.join;
  for (const [roomId, room] of batch.rooms.join) {
    const timeline = filterTimeline(roomId, room.timeline, acc);
    if (timeline === room.timeline) continue;
    if (join === batch.rooms.join) join = new Map(join);
    join.set(roomId, { ...room, timeline });
  }
  let leave = batch.rooms.leave;
  for (const [roomId, room] of batch.rooms.leave) {
    const timeline = filterTimeline(roomId, room.timeline, acc);
    if (timeline === room.timeline) continue;
    if (leave === batch.rooms.leave) leave = new Map(leave);
    leave.set(roomId, { ...room, timeline });
  }
  if (join === batch.rooms.join && leave === batch.rooms.leave) return batch;
  return { ...batch, rooms: { ...batch.rooms, join, leave } };
}

function filterTimeline(roomId: string, timeline: ParsedTimeline, acc: SyncAccumulator): ParsedTimeline {
  if (!timeline.events.some((e) => acc.hasTimelineEvent(roomId, e.event_id))) return timeline;
  return { ...timeline, events: timeline.events.filter((e) => !acc.hasTimelineEvent(roomId, e.event_id)) };
}
