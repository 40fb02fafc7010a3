/**
 * The few client-server calls the demo seed makes, over plain fetch: it
 * talks to the server only through HTTP, like any client, so it does not
 * depend on the server's internals.
 */

/** A failed request of the seed. */
export class DemoRequestError extends Error {
  constructor(
    readonly status: number,
    readonly errcode: string | undefined,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "DemoRequestError";
  }
}

export interface DemoSession {
  userId: string;
  accessToken: string;
  deviceId: string;
}

const V3 = "/_matrix/client/v3";

export class DemoClient {
  private txn = 0;

  constructor(
    readonly baseUrl: string,
    readonly session: DemoSession,
  ) {}

  get userId(): string {
    return this.session.userId;
  }

  /** One JSON request with this user's token. */
  async request(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    return demoRequest(this.baseUrl, method, path, body, this.session.accessToken);
  }

  async createRoom(options: Record<string, unknown>): Promise<string> {
    const res = await this.request("POST", `${V3}/createRoom`, options);
    return String(res["room_id"]);
  }

  async join(roomIdOrAlias: string): Promise<void> {
    await this.request("POST", `${V3}/join/${encodeURIComponent(roomIdOrAlias)}`, {});
  }

  /** Sends a room event with a deterministic transaction id; returns its event id. */
  async send(roomId: string, type: string, content: Record<string, unknown>): Promise<string> {
    const txnId = `demo-${this.session.deviceId}-${++this.txn}`;
    const res = await this.request(
      "PUT",
      `${V3}/rooms/${encodeURIComponent(roomId)}/send/${encodeURIComponent(type)}/${txnId}`,
      content,
    );
    return String(res["event_id"]);
  }

  async sendText(roomId: string, body: string, extra: Record<string, unknown> = {}): Promise<string> {
    return this.send(roomId, "m.room.message", { msgtype: "m.text", body, ...extra });
  }

  async setState(
    roomId: string,
    type: string,
    stateKey: string,
    content: Record<string, unknown>,
  ): Promise<void> {
    await this.request(
      "PUT",
      `${V3}/rooms/${encodeURIComponent(roomId)}/state/${encodeURIComponent(type)}/${encodeURIComponent(stateKey)}`,
      content,
    );
  }

  async setAccountData(type: string, content: Record<string, unknown>): Promise<void> {
    await this.request(
      "PUT",
      `${V3}/user/${encodeURIComponent(this.userId)}/account_data/${encodeURIComponent(type)}`,
      content,
    );
  }

  async setDisplayName(name: string): Promise<void> {
    await this.request("PUT", `${V3}/profile/${encodeURIComponent(this.userId)}/displayname`, {
      displayname: name,
    });
  }

  /** Uploads a file to the media repository; returns its mxc URI. */
  async upload(data: Buffer, contentType: string, filename: string): Promise<string> {
    const res = await fetch(
      `${this.baseUrl}/_matrix/media/v3/upload?filename=${encodeURIComponent(filename)}`,
      {
        method: "POST",
        headers: { Authorization: `Bearer ${this.session.accessToken}`, "Content-Type": contentType },
        // A plain Uint8Array view: DOM and Node typings both accept it as a body.
        body: Uint8Array.from(data),
      },
    );
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok)
      throw new DemoRequestError(res.status, String(json["errcode"]), `upload failed: ${res.status}`);
    return String(json["content_uri"]);
  }
}

/** A JSON request; throws DemoRequestError on a non-2xx answer. */
export async function demoRequest(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (token !== undefined) headers["Authorization"] = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(baseUrl + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new DemoRequestError(0, undefined, `${method} ${path}: ${String(err)}`, { cause: err });
  }
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    const parsed: unknown = text.length > 0 ? JSON.parse(text) : {};
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      json = parsed as Record<string, unknown>;
    }
  } catch {
    // Not JSON: reported through the status below.
  }
  if (!res.ok) {
    const errcode = typeof json["errcode"] === "string" ? json["errcode"] : undefined;
    throw new DemoRequestError(
      res.status,
      errcode,
      `${method} ${path}: ${res.status} ${errcode ?? text.slice(0, 200)}`,
    );
  }
  return json;
}
