/**
 * Timeline events of the fixture: plain messages, replies (m.in_reply_to),
 * edits (m.replace), reactions (m.annotation) and thread replies (m.thread),
 * each relating to a message the room already has. Used for the initial
 * timelines and for the incremental batches alike.
 */
import type { ClientEventWithoutRoomId } from "@lattice/sdk/api/types/events";
import type { RoomMemory, World } from "./fixture-world";

const REACTION_KEYS = ["👍", "❤️", "😂", "🎉", "👀", "🚀"];

/** One timeline event of a random kind, from a random member; remembered in `room`. */
export function timelineEvent(world: World, room: RoomMemory): ClientEventWithoutRoomId {
  const { rng } = world;
  const sender = rng.pick(room.members);
  const roll = rng.next();
  const target = room.messages.length > 0 ? rng.pick(room.messages) : undefined;
  if (target && roll < 0.1) return reply(world, room, sender, target.eventId);
  if (target && roll < 0.18) return edit(world, target);
  if (target && roll < 0.3) {
    return world.event("m.reaction", sender, {
      "m.relates_to": { rel_type: "m.annotation", event_id: target.eventId, key: rng.pick(REACTION_KEYS) },
    });
  }
  if (target && roll < 0.4) return threadReply(world, room, sender, target.eventId);
  return message(world, room, sender);
}

/** A plain text message, sometimes with HTML. */
export function message(world: World, room: RoomMemory, sender: string): ClientEventWithoutRoomId {
  const body = world.sentence();
  const content: Record<string, unknown> = { msgtype: "m.text", body };
  if (world.rng.chance(0.2)) {
    content.format = "org.matrix.custom.html";
    content.formatted_body = `<p>${body}</p>`;
  }
  const event = world.event("m.room.message", sender, content);
  room.messages.push({ eventId: event.event_id, sender });
  return event;
}

function reply(world: World, room: RoomMemory, sender: string, target: string): ClientEventWithoutRoomId {
  const event = world.event("m.room.message", sender, {
    msgtype: "m.text",
    body: world.sentence(),
    "m.relates_to": { "m.in_reply_to": { event_id: target } },
  });
  room.messages.push({ eventId: event.event_id, sender });
  return event;
}

/** An edit comes from the original sender (servers reject others' edits). */
function edit(world: World, target: { eventId: string; sender: string }): ClientEventWithoutRoomId {
  const body = world.sentence();
  return world.event("m.room.message", target.sender, {
    msgtype: "m.text",
    body: `* ${body}`,
    "m.new_content": { msgtype: "m.text", body },
    "m.relates_to": { rel_type: "m.replace", event_id: target.eventId },
  });
}

/** A thread reply: to an existing thread root when there is one, else it starts a thread. */
function threadReply(
  world: World,
  room: RoomMemory,
  sender: string,
  target: string,
): ClientEventWithoutRoomId {
  const root =
    room.threadRoots.length > 0 && world.rng.chance(0.6) ? world.rng.pick(room.threadRoots) : target;
  if (!room.threadRoots.includes(root)) room.threadRoots.push(root);
  return world.event("m.room.message", sender, {
    msgtype: "m.text",
    body: world.sentence(),
    "m.relates_to": {
      rel_type: "m.thread",
      event_id: root,
      is_falling_back: true,
      "m.in_reply_to": { event_id: root },
    },
  });
}
