/**
 * The client's heavy feature services, each its own chunk loaded on first
 * use (docs/architecture/0038-lazy-services.md): `client.voip()` (1:1 and
 * mesh calls), `client.rtc()` (MatrixRTC) and `client.files()` (file
 * trees). A web app's first screen then carries none of their code.
 *
 * The call services learn of calls from sync, so nothing sync delivered
 * before they load may be lost: from the client's creation a Replay holds
 * each processed batch (and each set of changed rooms) for them, hands the
 * held ones over in order when the service subscribes, and passes later
 * ones straight through. `preload()` (the client's start) loads both call
 * services in the background, so an incoming call rings without the app
 * asking for calls first, and the held batches stay few.
 */
import type { ToDeviceEvent } from "../api/types/events";
import type { FilesService } from "../files/FilesService";
import type { RtcService } from "../rtc/RtcService";
import type { SyncBatchListener, ProcessedSync } from "../sync/processor/types";
import type { Logger } from "../util/logger";
import type { VoipService } from "../voip/VoipService";
import type { FilesWiring } from "./files";
import type { RtcWiring } from "./rtc";
import type { VoipWiring } from "./voip";

/**
 * Items of a source kept for one subscriber that comes later: held until
 * it subscribes, then given to it in order (in a microtask, so the
 * subscriber's constructor has finished), then passed on as they come.
 */
export class Replay<T> {
  private held: T[] | undefined = [];
  private target: ((item: T) => void) | undefined;
  private readonly stopSource: () => void;

  constructor(source: (listener: (item: T) => void) => () => void) {
    this.stopSource = source((item) => {
      if (this.held) this.held.push(item);
      else this.target?.(item);
    });
  }

  /** The one subscriber: the held items first, then the live ones; returns the unsubscribe. */
  readonly subscribe = (listener: (item: T) => void): (() => void) => {
    this.target = listener;
    queueMicrotask(() => {
      const held = this.held ?? [];
      this.held = undefined;
      for (const item of held) if (this.target === listener) listener(item);
    });
    return () => this.dispose();
  };

  /** Stops listening to the source and drops what is held. */
  dispose(): void {
    this.target = undefined;
    this.held = undefined;
    this.stopSource();
  }
}

/** What the lazy services are built from: each service's wiring, less what the replays give. */
export interface LazyServicesWiring {
  voip: Omit<VoipWiring, "batches" | "roomsChanged">;
  rtc: Omit<RtcWiring, "batches">;
  files: FilesWiring;
  /** The processed sync batches (absent when the client has no processor). */
  batches: { subscribe(listener: SyncBatchListener): () => void } | undefined;
  /** Changed room ids, from the room model. */
  onRoomsChanged(listener: (roomIds: ReadonlySet<string>) => void): () => void;
  onToDevice(listener: (events: readonly ToDeviceEvent[]) => void): () => void;
  logger: Logger | undefined;
}

/** The client's lazily loaded services and their lifecycle. */
export interface LazyServices {
  readonly voip: () => Promise<VoipService>;
  readonly rtc: () => Promise<RtcService>;
  readonly files: () => Promise<FilesService>;
  /** Loads the call services in the background and starts TURN where calls can happen (the client's start). */
  preload(): void;
  /** The call service if it has loaded (stop() stops its TURN polling). */
  loadedVoip(): VoipService | undefined;
  /** Disposes what has loaded (waiting for a load under way) and lets go of the held batches. */
  dispose(): Promise<void>;
}

/** One loader: memoised, retried after a failed load (a chunk the network lost). */
function once<T>(load: () => Promise<T>): {
  get(): Promise<T>;
  loaded(): T | undefined;
  /** The load under way or done, if one was started; never starts one. */
  started(): Promise<T> | undefined;
} {
  let pending: Promise<T> | undefined;
  let value: T | undefined;
  return {
    get() {
      pending ??= load().then(
        (v) => (value = v),
        (error: unknown) => {
          pending = undefined;
          throw error;
        },
      );
      return pending;
    },
    loaded: () => value,
    started: () => pending,
  };
}

export function lazyServices(w: LazyServicesWiring): LazyServices {
  const voipBatches = new Replay<ProcessedSync>((l) => w.batches?.subscribe(l) ?? ((): void => undefined));
  const voipRooms = new Replay<ReadonlySet<string>>((l) => w.onRoomsChanged(l));
  const rtcBatches = new Replay<ProcessedSync>((l) => w.batches?.subscribe(l) ?? ((): void => undefined));
  let disposed = false;
  const voip = once(async () => {
    const { createVoip } = await import("./voip");
    return createVoip({ ...w.voip, batches: voipBatches, roomsChanged: voipRooms.subscribe });
  });
  const rtc = once(async () => {
    const { createRtc } = await import("./rtc");
    return createRtc({ ...w.rtc, batches: rtcBatches });
  });
  const files = once(async () => (await import("./files")).createFiles(w.files));
  const warn = (what: string) => (error: unknown) => w.logger?.warn(`Loading ${what} failed`, error);
  return {
    voip: () => voip.get(),
    rtc: () => rtc.get(),
    files: () => files.get(),
    preload() {
      if (disposed) return;
      void voip.get().then((service) => {
        // TURN credentials are fetched only where calls can happen.
        if (service.hasPlatform && !disposed) void service.start();
      }, warn("calls"));
      void rtc.get().catch(warn("MatrixRTC"));
    },
    loadedVoip: () => voip.loaded(),
    async dispose() {
      disposed = true;
      voipBatches.dispose();
      voipRooms.dispose();
      rtcBatches.dispose();
      // A load under way finishes first, so what it built is disposed too.
      const [v, r] = await Promise.all([settled(voip.started()), settled(rtc.started())]);
      r?.dispose();
      await v?.dispose();
    },
  };
}

/** The value of a started load once it succeeds; undefined when none was started or it failed. */
async function settled<T>(load: Promise<T> | undefined): Promise<T | undefined> {
  return load?.catch(() => undefined);
}
