/**
 * The requests of a joined call, bound to a room. The membership manager's, bound to a room and a wire form: the
 * state form PUTs `org.matrix.msc3401.call.member` under our state key; the
 * sticky form sends `org.matrix.msc4143.rtc.member` with
 * `org.matrix.msc4354.sticky_duration_ms`. Delays use MSC4140's
 * `org.matrix.msc4140.delay`; a delayed answer without delay_id means an
 * old server sent the event at once. Raised hands and reactions read the
 * annotations on a membership event through GET /relations (decrypted
 * where the room is encrypted).
 */
import { sendDelayedStateEvent, updateDelayedEvent } from "../api/delayed-events";
import { relations } from "../api/relations";
import { redactEvent, sendPath, sendStateEvent } from "../api/send";
import type { ClientEventWithoutRoomId } from "../api/types/events";
import { DELAYED_EVENTS_DELAY } from "../api/unstable";
import { createTxnIdGenerator } from "../http/txn";
import type { HttpApi } from "../http/types";
import { CALL_MEMBER_EVENT, RTC_MEMBER_EVENT, STICKY_DURATION_MS, STICKY_DURATION_PARAM } from "./constants";
import type { CallReactionsIo } from "./reactions/CallReactions";
import type { MembershipIo } from "./session/MembershipManager";

function delayIdOf(answer: unknown): string | undefined {
  const id =
    typeof answer === "object" && answer !== null
      ? (answer as Record<string, unknown>)["delay_id"]
      : undefined;
  return typeof id === "string" ? id : undefined;
}

/** State-form requests for our state key in `roomId`. */
export function stateMembershipIo(http: HttpApi, roomId: string, stateKey: string): MembershipIo {
  return {
    send: async (content) => {
      await sendStateEvent(http, roomId, CALL_MEMBER_EVENT, content, stateKey);
    },
    sendDelayed: async (content, delayMs) =>
      delayIdOf(await sendDelayedStateEvent(http, roomId, CALL_MEMBER_EVENT, content, { delayMs }, stateKey)),
    updateDelayed: async (delayId, action) => {
      await updateDelayedEvent(http, delayId, action);
    },
  };
}

/** Sticky-form requests (MSC4354) in `roomId`. */
export function stickyMembershipIo(http: HttpApi, roomId: string): MembershipIo {
  const txn = createTxnIdGenerator();
  const put = (content: Record<string, unknown>, delayMs?: number): Promise<unknown> =>
    http.request<unknown>({
      method: "PUT",
      path: sendPath(roomId, RTC_MEMBER_EVENT, txn()),
      query: {
        [STICKY_DURATION_PARAM]: STICKY_DURATION_MS,
        ...(delayMs !== undefined ? { [DELAYED_EVENTS_DELAY.unstable]: delayMs } : {}),
      },
      body: content,
    });
  return {
    send: async (content) => {
      await put(content);
    },
    sendDelayed: async (content, delayMs) => delayIdOf(await put(content, delayMs)),
    updateDelayed: async (delayId, action) => {
      await updateDelayedEvent(http, delayId, action);
    },
  };
}

/** How many annotations of one membership event a restore reads (hands are one per member device). */
const ANNOTATIONS_LIMIT = 200;

/** What reactionsIo needs beyond the HTTP API: the room's send path and decryption. */
export interface ReactionsWiring {
  send: (type: string, content: Record<string, unknown>) => Promise<string | undefined>;
  /** Decrypts one event; absent without crypto. */
  decrypt?: (event: ClientEventWithoutRoomId) => Promise<ClientEventWithoutRoomId | undefined>;
}

/** Raised hands' and reactions' requests in `roomId`. */
export function reactionsIo(http: HttpApi, roomId: string, w: ReactionsWiring): CallReactionsIo {
  const txn = createTxnIdGenerator();
  return {
    send: w.send,
    // Redactions are never encrypted: PUT /redact as the send queue would, without a local echo.
    redact: async (eventId) => {
      await redactEvent(http, roomId, eventId, txn());
    },
    annotations: async (eventId) => {
      const page = await relations(http, roomId, eventId, {
        relType: "m.annotation",
        limit: ANNOTATIONS_LIMIT,
      });
      const out: ClientEventWithoutRoomId[] = [];
      for (const event of page.chunk) {
        // Encrypted rooms: the relation is in the clear, the key inside.
        const plain = event.type === "m.room.encrypted" && w.decrypt ? await w.decrypt(event) : event;
        if (plain) out.push(plain);
      }
      return out;
    },
  };
}
