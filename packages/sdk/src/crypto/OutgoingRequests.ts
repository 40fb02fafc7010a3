/**
 * The one place where the engine's outgoing requests become HTTP calls: keys
 * upload, query and claim, to-device messages, signature uploads, room
 * messages (in-room verification) and key backup uploads. Each answer goes
 * back to the engine with markRequestAsSent. Runs are serialised: a run asked
 * for while one is going sets a flag, and the running loop fetches the
 * engine's queue once more instead of starting a second loop, so the same
 * request is never sent twice at once. Each caller waits only for the first
 * pass over the queue that starts after its call (which sends everything
 * queued when it called), not for the whole loop: while others keep asking
 * for runs the loop goes on, and the sync step waiting for its key query
 * would otherwise wait for all of it.
 */
import type { Logger } from "../util/logger";
import { silentLogger } from "../util/logger";
import type { OlmMachine, OutgoingRequest, RequestType } from "@matrix-org/matrix-sdk-crypto-wasm";
import { claimKeys, queryKeys, uploadKeys, uploadSignatures } from "../api/keys";
import { putRoomKeys } from "../api/room-keys";
import { sendEvent } from "../api/send";
import { sendToDevice } from "../api/to-device";
import type { HttpApi } from "../http/types";
import type { Engine } from "./load";

type RequestMachine = Pick<OlmMachine, "outgoingRequests" | "markRequestAsSent">;

/** The engine's JSON body; it builds the wire shape, so only the top level is checked. */
function parseBody<T = Record<string, unknown>>(body: string): T {
  const parsed: unknown = JSON.parse(body);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new TypeError("crypto engine produced a request body that is not an object");
  }
  return parsed as T;
}

/**
 * The engine (crypto-wasm 18) leaves `method` out of m.key.verification.accept,
 * which the spec requires; SAS is the only method that has an accept, so it
 * is put back. The peer's engine ignores it; spec-strict peers need it.
 */
function withAcceptMethod(type: string, content: Record<string, unknown>): Record<string, unknown> {
  return type === "m.key.verification.accept" && content["method"] === undefined
    ? { method: "m.sas.v1", ...content }
    : content;
}

/** Encrypts a room message for an encrypted room; undefined sends it as it is. */
export type RoomMessageEncryptor = (
  roomId: string,
  type: string,
  content: Record<string, unknown>,
) => Promise<{ type: string; content: Record<string, unknown> } | undefined>;

/** Turns the engine's outgoing requests into HTTP calls; one loop at a time. */
export class OutgoingRequests {
  private running: Promise<void> | undefined;
  private again = false;
  /** Callers whose pass has not started yet. */
  private waiting: Array<() => void> = [];
  /** Set by the verification layer: in-room verification steps in encrypted rooms go encrypted. */
  roomEncryptor: RoomMessageEncryptor | undefined;

  constructor(
    private readonly engine: Pick<Engine, "RequestType">,
    private readonly machine: RequestMachine,
    private readonly http: HttpApi,
    private readonly logger: Pick<Logger, "warn"> = silentLogger,
  ) {}

  /**
   * Sends everything the engine has queued when it is called: it settles
   * when the first pass over the engine's queue that starts after this call
   * is done (later passes, asked for by later calls, go on without it). It
   * never rejects (failures are logged and the engine keeps the request).
   */
  run(): Promise<void> {
    const done = new Promise<void>((resolve) => this.waiting.push(resolve));
    this.kick();
    return done;
  }

  /** Starts the loop, or asks the running one for one more pass. */
  private kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = undefined;
      // A call that came after the last pass ended, before this ran, still needs its pass.
      if (this.waiting.length > 0) this.kick();
    });
  }

  /** Resolves once no run is going (and no encrypted room message is on its way). */
  async idle(): Promise<void> {
    while (this.running || this.detached.size > 0) await Promise.all([this.running, ...this.detached]);
  }

  private readonly detached = new Set<Promise<void>>();
  private readonly inFlight = new Set<string>();
  /**
   * Sends a room message outside the loop: encrypting it may share the room
   * key, which runs the processor (and would wait for this very loop).
   */
  private detach(request: OutgoingRequest & { id: string }): void {
    this.inFlight.add(request.id);
    const sending: Promise<void> = this.send(request)
      .catch((error: unknown) => this.logger.warn("crypto: an encrypted room message failed", error))
      .finally(() => {
        this.inFlight.delete(request.id);
        this.detached.delete(sending);
      });
    this.detached.add(sending);
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      const mine = this.waiting;
      this.waiting = [];
      try {
        if (!(await this.pass())) {
          // The engine's queue could not be read: nobody waiting is helped by another try now.
          for (const resolve of this.waiting.splice(0)) resolve();
          return;
        }
      } finally {
        for (const resolve of mine) resolve();
      }
    } while (this.again || this.waiting.length > 0);
  }

  /** One pass over the engine's queue; false when the queue could not be read. */
  private async pass(): Promise<boolean> {
    let requests: OutgoingRequest[];
    try {
      requests = await this.machine.outgoingRequests();
    } catch (error) {
      this.logger.warn("crypto: reading outgoing requests failed", error);
      return false;
    }
    for (const request of requests) {
      if (request.id !== undefined && this.inFlight.has(request.id)) continue;
      if (
        this.roomEncryptor &&
        request.type === this.engine.RequestType.RoomMessage &&
        request.id !== undefined
      ) {
        this.detach(request as OutgoingRequest & { id: string });
        continue;
      }
      try {
        await this.send(request);
      } catch (error) {
        this.logger.warn(`crypto: outgoing request ${request.type} failed`, error);
      }
    }
    return true;
  }

  /**
   * Sends one request and reports the answer to the engine. The encryptor
   * calls it directly for the claim and to-device requests it gets from
   * getMissingSessions and shareRoomKey. Throws on HTTP failure.
   */
  async send(request: OutgoingRequest): Promise<void> {
    const answer = await this.dispatch(request);
    if (request.id !== undefined) {
      await this.machine.markRequestAsSent(request.id, request.type, JSON.stringify(answer));
    }
  }

  private async sendRoomMessage(r: Extract<OutgoingRequest, { room_id: string }>): Promise<unknown> {
    const content = withAcceptMethod(r.event_type, parseBody(r.body));
    const encrypted = await this.roomEncryptor?.(r.room_id, r.event_type, content);
    return sendEvent(
      this.http,
      r.room_id,
      encrypted?.type ?? r.event_type,
      r.txn_id,
      encrypted?.content ?? content,
    );
  }

  private dispatch(request: OutgoingRequest): Promise<unknown> {
    const T: typeof RequestType = this.engine.RequestType;
    const http = this.http;
    switch (request.type) {
      case T.KeysUpload:
        return uploadKeys(http, parseBody(request.body));
      case T.KeysQuery:
        return queryKeys(http, parseBody<Parameters<typeof queryKeys>[1]>(request.body));
      case T.KeysClaim:
        return claimKeys(http, parseBody<Parameters<typeof claimKeys>[1]>(request.body));
      case T.SignatureUpload:
        return uploadSignatures(http, parseBody<Parameters<typeof uploadSignatures>[1]>(request.body));
      case T.ToDevice: {
        const r = request as Extract<OutgoingRequest, { event_type: string; txn_id: string }>;
        const messages = parseBody(r.body)["messages"] as Parameters<typeof sendToDevice>[3];
        for (const devices of Object.values(messages)) {
          for (const [device, content] of Object.entries(devices))
            devices[device] = withAcceptMethod(r.event_type, content);
        }
        return sendToDevice(http, r.event_type, r.txn_id, messages);
      }
      case T.RoomMessage:
        return this.sendRoomMessage(request as Extract<OutgoingRequest, { room_id: string }>);
      case T.KeysBackup: {
        const r = request as Extract<OutgoingRequest, { version: string }>;
        return putRoomKeys(http, r.version, parseBody<Parameters<typeof putRoomKeys>[2]>(r.body));
      }
      default:
        return Promise.reject(new TypeError(`unknown crypto request type ${String(request.type)}`));
    }
  }
}
