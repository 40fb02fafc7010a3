/**
 * A SyncTransport whose implementation loads on its first request: the
 * sliding sync transport (its request builder and its conversion to sync
 * v2's shape) is only needed once SelectingSyncTransport has chosen it,
 * so it stays out of what a page loads before its first screen (and out of
 * the embedded page, which syncs from the host's feed).
 */
import type { SyncResponse } from "../../api/types/sync";
import type { SyncRequest, SyncTransport } from "../SyncLoop";

/** Builds the transport on first use and keeps that one instance (it holds the sync position). */
export class LazySyncTransport implements SyncTransport {
  private loading: Promise<SyncTransport> | undefined;

  constructor(private readonly load: () => Promise<SyncTransport>) {}

  async sync(request: SyncRequest): Promise<SyncResponse> {
    return (await this.transport()).sync(request);
  }

  async probe(timeoutMs: number, signal: AbortSignal): Promise<void> {
    return (await this.transport()).probe(timeoutMs, signal);
  }

  private transport(): Promise<SyncTransport> {
    // A failed load (a chunk the network lost) is not kept: the loop's next request retries it.
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }
}
