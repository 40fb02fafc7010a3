/**
 * Upload bodies with progress. fetch has no upload progress event, so where
 * the runtime can stream a request body (Node 20's fetch, with
 * `duplex: "half"`) the bytes are fed through a counting ReadableStream and
 * progress is reported per chunk as it is pulled. Browsers only stream
 * request bodies over HTTP/2 and reject them on HTTP/1.1, so there the body
 * is sent whole and progress is reported as 0 before and total after.
 *
 * A StreamedBody (made while it is sent, e.g. encrypted on the fly) goes out
 * as a stream with its Content-Length (servers such as Synapse refuse an
 * upload without one); where streaming is off it is first read into a Blob.
 */
import type { RawBody, StreamedBody, UploadProgress } from "./types";

/** Chunk size for the counting stream: small enough for smooth progress. */
const CHUNK_BYTES = 64 * 1024;

/** A request body as fetch takes it (BodyInit, without relying on DOM types). */
export type FetchBody = NonNullable<RequestInit["body"]>;

/** What to hand to fetch for one upload attempt. */
export interface PreparedUpload {
  body: FetchBody;
  /** Set when the body is a stream (fetch then needs `duplex: "half"`). */
  streaming: boolean;
  /** The Content-Length to send with a streamed body of known size. */
  length?: number;
  /** Call once the answer arrived, to report completion where streaming was not used. */
  done: () => void;
}

/** True when this runtime's fetch accepts a streaming request body over HTTP/1.1 (Node). */
export function canStreamUploads(): boolean {
  const proc = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof proc?.versions?.node === "string" && typeof ReadableStream === "function";
}

function isStreamed(raw: RawBody): raw is StreamedBody {
  return typeof (raw as Partial<StreamedBody>).open === "function";
}

function byteLength(raw: Uint8Array | ArrayBuffer | Blob): number {
  return raw instanceof Blob ? raw.size : raw.byteLength;
}

function toBytes(raw: Uint8Array | ArrayBuffer): Uint8Array {
  return raw instanceof Uint8Array ? raw : new Uint8Array(raw);
}

function counted(
  stream: ReadableStream<Uint8Array>,
  total: number,
  onProgress: (progress: UploadProgress) => void,
): ReadableStream<Uint8Array> {
  let loaded = 0;
  onProgress({ loaded: 0, total });
  return stream.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, ctl) => {
        loaded += chunk.byteLength;
        onProgress({ loaded, total });
        ctl.enqueue(chunk);
      },
    }),
  );
}

/**
 * Prepares `raw` for one attempt, reporting progress to `onProgress` if
 * given. A new body is made per attempt, since a stream can be read once.
 */
export async function prepareUpload(
  raw: RawBody,
  onProgress: ((progress: UploadProgress) => void) | undefined,
  streaming: boolean,
): Promise<PreparedUpload> {
  if (isStreamed(raw)) {
    if (streaming) {
      const stream = raw.open();
      const body = onProgress ? counted(stream, raw.length, onProgress) : stream;
      return { body, streaming: true, length: raw.length, done: () => undefined };
    }
    return prepareUpload(await new Response(raw.open()).blob(), onProgress, false);
  }
  const total = byteLength(raw);
  if (!onProgress) return { body: raw as FetchBody, streaming: false, done: () => undefined };
  if (!streaming) {
    onProgress({ loaded: 0, total });
    return { body: raw as FetchBody, streaming: false, done: () => onProgress({ loaded: total, total }) };
  }
  let stream: ReadableStream<Uint8Array>;
  if (raw instanceof Blob) {
    stream = raw.stream();
  } else {
    const bytes = toBytes(raw);
    let offset = 0;
    stream = new ReadableStream<Uint8Array>({
      pull(ctl) {
        if (offset >= bytes.byteLength) {
          ctl.close();
          return;
        }
        const chunk = bytes.subarray(offset, offset + CHUNK_BYTES);
        offset += chunk.byteLength;
        ctl.enqueue(chunk);
      },
    });
  }
  // The size is known: send it, rather than a chunked body some servers refuse.
  return { body: counted(stream, total, onProgress), streaming: true, length: total, done: () => undefined };
}
