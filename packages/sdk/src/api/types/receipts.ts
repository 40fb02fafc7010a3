/**
 * Wire types of receipts, read markers and typing (receipts.yaml,
 * read_markers.yaml, typing.yaml).
 */

/** Receipt types a client sends. */
export type ReceiptType = "m.read" | "m.read.private" | "m.fully_read";

/** The body of POST /rooms/{roomId}/read_markers. */
export interface ReadMarkersRequest {
  "m.fully_read"?: string;
  "m.read"?: string;
  "m.read.private"?: string;
}
