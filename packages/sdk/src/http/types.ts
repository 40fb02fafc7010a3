/**
 * The contract between the HTTP layer and everything above it. API modules
 * (src/api) describe one request each through RequestOptions and hand it to
 * an HttpApi; the HTTP layer owns prefixes, auth, retries, timeouts, error
 * typing and the stable-to-unstable prefix fallback.
 */

/** Path prefixes of the Matrix APIs. */
export const Prefix = {
  /** No prefix: the path is used as given (e.g. /_matrix/client/versions, /.well-known/...). */
  None: "",
  ClientV1: "/_matrix/client/v1",
  ClientV3: "/_matrix/client/v3",
  ClientUnstable: "/_matrix/client/unstable",
  MediaV3: "/_matrix/media/v3",
  MediaV1: "/_matrix/client/v1/media",
  IdentityV2: "/_matrix/identity/v2",
  SynapseAdminV1: "/_synapse/admin/v1",
} as const;
export type Prefix = (typeof Prefix)[keyof typeof Prefix];

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE" | "PATCH";

export type QueryValue = string | number | boolean | undefined | null | readonly string[];
export type QueryParams = Readonly<Record<string, QueryValue>>;

/** Upload progress, reported as bytes sent out of the total. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/** One request, as an API function describes it. */
export interface RequestOptions {
  method: HttpMethod;
  /** The path after the prefix, each variable segment already encoded (see `encodePath`). */
  path: string;
  /** Defaults to Prefix.ClientV3. */
  prefix?: string;
  /**
   * Prefixes to try in order when the server answers that the endpoint is
   * unrecognised (404, 405, or 400 M_UNRECOGNIZED). Each entry may also
   * replace the path (unstable endpoints sometimes live under another name).
   */
  fallback?: ReadonlyArray<{ prefix: string; path?: string }>;
  query?: QueryParams;
  /** JSON body. */
  body?: unknown;
  /** Raw body for uploads; sent as is with `contentType`. */
  rawBody?: RawBody;
  contentType?: string;
  /** Send the bearer token; defaults to true. */
  authenticated?: boolean;
  /** Overrides the client's access token for this request (identity server calls). */
  accessToken?: string;
  /** Local time-out in ms for this request; defaults to the client's. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Whether to retry network errors, 5xx and M_LIMIT_EXCEEDED; defaults to true. */
  retry?: boolean;
  /**
   * "json" (default), "bytes" for media downloads, or "stream": a 2xx body
   * is handed to `readBody` chunk by chunk, and its result is the answer.
   */
  responseType?: "json" | "bytes" | "stream";
  /**
   * Reads a 2xx body for responseType "stream". It runs inside the attempt,
   * so the time-out and the caller's signal still apply, and it is called
   * afresh on a retried attempt (it must keep no state between calls).
   */
  readBody?: (body: BodyReader) => Promise<unknown>;
  /** Use this base URL instead of the homeserver's (identity server, well-known). */
  baseUrl?: string;
  /** Progress callback for uploads. */
  onUploadProgress?: (progress: UploadProgress) => void;
}

/** A raw request body as the request options carry it. */
export type RawBody = Uint8Array | ArrayBuffer | Blob | StreamedBody;

/**
 * An upload body made on demand, for bodies too large to hold twice (an
 * encrypted file is encrypted while it is sent). Each attempt opens a fresh
 * stream, which must yield exactly `length` bytes, the same ones each time.
 */
export interface StreamedBody {
  readonly length: number;
  open(): ReadableStream<Uint8Array>;
}

/** A response body read chunk by chunk; a failed read rejects with the HTTP layer's ConnectionError. */
export interface BodyReader {
  /** The Content-Length, or null when the server did not send one. */
  readonly length: number | null;
  /** The next chunk, or undefined at the end of the body. */
  read(): Promise<Uint8Array | undefined>;
}

/** Raw bytes with their content type, for media downloads. */
export interface BytesResponse {
  data: Uint8Array;
  contentType: string | null;
  contentDisposition: string | null;
}

/** What API modules need from the HTTP layer: one method. */
export interface HttpApi {
  request<T>(options: RequestOptions): Promise<T>;
}

/**
 * Builds a path from a template, URL-encoding every substituted value:
 * encodePath`/rooms/${roomId}/send/${type}/${txnId}`.
 */
export function encodePath(strings: TemplateStringsArray, ...values: ReadonlyArray<string | number>): string {
  let out = strings[0] ?? "";
  values.forEach((value, i) => {
    out += encodeURIComponent(String(value)) + (strings[i + 1] ?? "");
  });
  return out;
}
