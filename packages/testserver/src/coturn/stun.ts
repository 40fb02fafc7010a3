/**
 * A minimal STUN/TURN client over UDP (RFC 5389, RFC 5766) for tests: a
 * Binding request (is the server up?) and an Allocate with the long-term
 * credential mechanism (does it accept these credentials?). Only what those
 * two exchanges need: the header, USERNAME, REALM, NONCE,
 * MESSAGE-INTEGRITY, REQUESTED-TRANSPORT, ERROR-CODE and
 * XOR-RELAYED-ADDRESS.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { createSocket } from "node:dgram";

const MAGIC_COOKIE = 0x2112a442;
const BINDING_REQUEST = 0x0001;
const BINDING_SUCCESS = 0x0101;
const ALLOCATE_REQUEST = 0x0003;
const ALLOCATE_SUCCESS = 0x0103;
const ALLOCATE_ERROR = 0x0113;

const ATTR = {
  username: 0x0006,
  messageIntegrity: 0x0008,
  errorCode: 0x0009,
  realm: 0x0014,
  nonce: 0x0015,
  xorRelayedAddress: 0x0016,
  requestedTransport: 0x0019,
  xorMappedAddress: 0x0020,
} as const;

/** A STUN/TURN exchange that went wrong: no answer in time, or an answer this client cannot read. */
export class StunProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StunProtocolError";
  }
}

/** A TURN server's refusal: its ERROR-CODE (401 Unauthorized, 438 Stale Nonce...) and reason. */
export class TurnError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`TURN error ${code}: ${reason}`);
    this.name = "TurnError";
  }
}

interface StunMessage {
  type: number;
  attributes: Map<number, Buffer>;
}

function attribute(type: number, value: Buffer): Buffer {
  const padded = Buffer.alloc(4 + Math.ceil(value.length / 4) * 4);
  padded.writeUInt16BE(type, 0);
  padded.writeUInt16BE(value.length, 2);
  value.copy(padded, 4);
  return padded;
}

function encode(type: number, txId: Buffer, attributes: Buffer[], integrityKey?: Buffer): Buffer {
  const body = Buffer.concat(attributes);
  const header = Buffer.alloc(20);
  header.writeUInt16BE(type, 0);
  header.writeUInt32BE(MAGIC_COOKIE, 4);
  txId.copy(header, 8);
  if (!integrityKey) {
    header.writeUInt16BE(body.length, 2);
    return Buffer.concat([header, body]);
  }
  // MESSAGE-INTEGRITY covers the message with a length that already counts the attribute itself.
  header.writeUInt16BE(body.length + 24, 2);
  const mac = createHmac("sha1", integrityKey)
    .update(Buffer.concat([header, body]))
    .digest();
  return Buffer.concat([header, body, attribute(ATTR.messageIntegrity, mac)]);
}

function decode(data: Buffer): StunMessage & { txId: Buffer } {
  if (data.length < 20 || data.readUInt32BE(4) !== MAGIC_COOKIE)
    throw new StunProtocolError("not a STUN message");
  const length = data.readUInt16BE(2);
  const attributes = new Map<number, Buffer>();
  for (let at = 20; at + 4 <= 20 + length;) {
    const type = data.readUInt16BE(at);
    const len = data.readUInt16BE(at + 2);
    attributes.set(type, data.subarray(at + 4, at + 4 + len));
    at += 4 + Math.ceil(len / 4) * 4;
  }
  return { type: data.readUInt16BE(0), txId: data.subarray(8, 20), attributes };
}

/**
 * One UDP socket to the server (TURN binds a nonce and an allocation to the
 * client's address and port, so an Allocate's two requests share it).
 */
class StunSession {
  private readonly socket = createSocket("udp4");
  private readonly waiting = new Map<string, (msg: StunMessage) => void>();

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {
    this.socket.on("message", (data) => {
      try {
        const msg = decode(data);
        this.waiting.get(msg.txId.toString("hex"))?.(msg);
      } catch {
        // not STUN
      }
    });
    this.socket.on("error", () => undefined);
  }

  /** Sends one request and resolves with the response to the same transaction. */
  request(request: Buffer, timeoutMs: number): Promise<StunMessage> {
    const key = request.subarray(8, 20).toString("hex");
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(key);
        reject(new StunProtocolError(`no STUN answer from ${this.host}:${this.port} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(key, (msg) => {
        clearTimeout(timer);
        this.waiting.delete(key);
        resolve(msg);
      });
      this.socket.send(request, this.port, this.host);
    });
  }

  close(): void {
    this.socket.close();
  }
}

function xorAddress(value: Buffer): { address: string; port: number } {
  const port = value.readUInt16BE(2) ^ (MAGIC_COOKIE >>> 16);
  const raw = value.readUInt32BE(4) ^ MAGIC_COOKIE;
  const address = [raw >>> 24, (raw >>> 16) & 0xff, (raw >>> 8) & 0xff, raw & 0xff].join(".");
  return { address, port };
}

function errorOf(msg: StunMessage): TurnError {
  const v = msg.attributes.get(ATTR.errorCode);
  if (!v) return new TurnError(0, "error response without ERROR-CODE");
  return new TurnError((v[2] ?? 0) * 100 + (v[3] ?? 0), v.subarray(4).toString("utf8"));
}

/** A STUN Binding request over UDP; resolves with the address the server saw us at. */
export async function stunBinding(
  host: string,
  port: number,
  timeoutMs = 2000,
): Promise<{ address: string; port: number }> {
  const session = new StunSession(host, port);
  const res = await session
    .request(encode(BINDING_REQUEST, randomBytes(12), []), timeoutMs)
    .finally(() => session.close());
  const mapped = res.attributes.get(ATTR.xorMappedAddress);
  if (res.type !== BINDING_SUCCESS || !mapped)
    throw new StunProtocolError(`unexpected STUN answer type ${res.type}`);
  return xorAddress(mapped);
}

/** Where and as whom to allocate. */
export interface TurnAllocateOptions {
  host: string;
  port: number;
  username: string;
  password: string;
  timeoutMs?: number;
}

/**
 * A TURN Allocate (UDP relay) with the long-term credential mechanism: the
 * first request draws the realm and nonce (401), the second signs with
 * MD5(username:realm:password). Resolves with the relayed address; rejects
 * with a TurnError when the server refuses the credentials.
 */
export async function turnAllocate(options: TurnAllocateOptions): Promise<{ address: string; port: number }> {
  const { host, port } = options;
  const timeoutMs = options.timeoutMs ?? 2000;
  const session = new StunSession(host, port);
  try {
    return await allocate(session, options, timeoutMs);
  } finally {
    session.close();
  }
}

async function allocate(
  session: StunSession,
  options: TurnAllocateOptions,
  timeoutMs: number,
): Promise<{ address: string; port: number }> {
  const udp = Buffer.from([17, 0, 0, 0]);
  const first = await session.request(
    encode(ALLOCATE_REQUEST, randomBytes(12), [attribute(ATTR.requestedTransport, udp)]),
    timeoutMs,
  );
  const realm = first.attributes.get(ATTR.realm);
  const nonce = first.attributes.get(ATTR.nonce);
  if (first.type !== ALLOCATE_ERROR || !realm || !nonce) throw errorOf(first);
  const key = createHash("md5")
    .update(`${options.username}:${realm.toString("utf8")}:${options.password}`)
    .digest();
  const signed = encode(
    ALLOCATE_REQUEST,
    randomBytes(12),
    [
      attribute(ATTR.requestedTransport, udp),
      attribute(ATTR.username, Buffer.from(options.username, "utf8")),
      attribute(ATTR.realm, realm),
      attribute(ATTR.nonce, nonce),
    ],
    key,
  );
  const res = await session.request(signed, timeoutMs);
  if (res.type !== ALLOCATE_SUCCESS) throw errorOf(res);
  const relayed = res.attributes.get(ATTR.xorRelayedAddress);
  if (!relayed) throw new StunProtocolError("Allocate succeeded without XOR-RELAYED-ADDRESS");
  return xorAddress(relayed);
}
