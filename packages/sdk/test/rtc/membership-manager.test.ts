/** The membership manager on fake time: delayed leave, restarts, retries, fallback, leave, unload, eviction. */
import { describe, expect, it } from "vitest";
import { ConnectionError, MatrixError } from "../../src/http/errors";
import { MembershipManager } from "../../src/rtc/session/MembershipManager";
import type { MembershipIo, MembershipManagerOptions } from "../../src/rtc/session/MembershipManager";
import { FakeScheduler } from "../support/fake-scheduler";

type Call = [string, ...unknown[]];

class FakeIo implements MembershipIo {
  calls: Call[] = [];
  /** Errors to throw, per method, in order. */
  failures: Record<string, Error[]> = {};
  delayedAnswer: string | undefined = "d1";
  private fail(method: string): void {
    const error = this.failures[method]?.shift();
    if (error !== undefined) throw error;
  }
  send(content: Record<string, unknown>): Promise<void> {
    this.calls.push(["send", content]);
    this.fail("send");
    return Promise.resolve();
  }
  sendDelayed(content: Record<string, unknown>, delayMs: number): Promise<string | undefined> {
    this.calls.push(["sendDelayed", content, delayMs]);
    this.fail("sendDelayed");
    return Promise.resolve(this.delayedAnswer);
  }
  /** Restarts left unanswered (a stalled request) until `answerRestarts`, when set. */
  holdRestarts = false;
  private held: Array<() => void> = [];
  updateDelayed(delayId: string, action: string): Promise<void> {
    this.calls.push(["updateDelayed", delayId, action]);
    this.fail(`update:${action}`);
    if (action === "restart" && this.holdRestarts) return new Promise((resolve) => this.held.push(resolve));
    return Promise.resolve();
  }
  answerRestarts(): void {
    for (const answer of this.held.splice(0)) answer();
  }
  names(): string[] {
    return this.calls.map((c) => (c[0] === "updateDelayed" ? `${c[0]}:${String(c[2])}` : c[0]));
  }
}

const rateLimit = (): MatrixError =>
  new MatrixError({ errcode: "M_LIMIT_EXCEEDED", error: "Too many", httpStatus: 429, retryAfterMs: 2000 });
const notFound = (): MatrixError =>
  new MatrixError({ errcode: "M_NOT_FOUND", error: "gone", httpStatus: 404 });
const network = (): ConnectionError => new ConnectionError("network", "down");

function setup(over: Partial<MembershipManagerOptions> = {}): {
  io: FakeIo;
  scheduler: FakeScheduler;
  manager: MembershipManager;
  warnings: string[];
} {
  const io = new FakeIo();
  const scheduler = new FakeScheduler();
  const warnings: string[] = [];
  const manager = new MembershipManager({
    io,
    scheduler,
    delayedEvents: true,
    joinContent: (createdTs, expires) => ({ created_ts: createdTs, expires }),
    leaveContent: () => ({}),
    warn: (message) => warnings.push(message),
    ...over,
  });
  return { io, scheduler, manager, warnings };
}

describe("MembershipManager", () => {
  it("schedules the delayed leave (30000 ms) before sending the membership, and restarts it every 4000 ms", async () => {
    const { io, scheduler, manager } = setup();
    await manager.join();
    expect(io.calls[0]).toEqual(["sendDelayed", {}, 30_000]);
    expect(io.calls[1]).toEqual(["send", { created_ts: scheduler.now(), expires: 14_400_000 }]);
    expect(manager.status.getSnapshot()).toBe("connected");
    await scheduler.advance(3999);
    expect(io.names()).toEqual(["sendDelayed", "send"]);
    await scheduler.advance(1);
    await scheduler.advance(4000);
    expect(io.names()).toEqual(["sendDelayed", "send", "updateDelayed:restart", "updateDelayed:restart"]);
  });

  it("a shorter delay (the crash tests') is sent as given and restarted four times within it", async () => {
    const { io, scheduler, manager } = setup({ delayedLeaveMs: 6_000 });
    await manager.join();
    expect(io.calls[0]).toEqual(["sendDelayed", {}, 6_000]);
    await scheduler.advance(1_499);
    expect(io.names()).toEqual(["sendDelayed", "send"]);
    await scheduler.advance(1);
    expect(io.names()).toEqual(["sendDelayed", "send", "updateDelayed:restart"]);
    await scheduler.advance(4_500);
    expect(io.names().filter((n) => n === "updateDelayed:restart")).toHaveLength(4);
  });

  it("re-sends the membership 5 s before it expires, with a longer expiry and the same created_ts", async () => {
    const { io, scheduler, manager } = setup({ delayedEvents: false, membershipExpiryMs: 60_000 });
    await manager.join();
    const created = scheduler.now();
    await scheduler.advance(54_999);
    expect(io.calls.filter((c) => c[0] === "send")).toHaveLength(1);
    await scheduler.advance(1);
    expect(io.calls.at(-1)).toEqual(["send", { created_ts: created, expires: 120_000 }]);
  });

  it("retries rate limits after retry_after_ms and network errors every 3000 ms, at most 10 times", async () => {
    const { io, scheduler, manager } = setup();
    io.failures["sendDelayed"] = [rateLimit()];
    io.failures["send"] = [network(), network()];
    const joined = manager.join();
    await scheduler.advance(1999);
    expect(io.names()).toEqual(["sendDelayed"]);
    await scheduler.advance(1);
    expect(io.names()).toEqual(["sendDelayed", "sendDelayed", "send"]);
    await scheduler.advance(6000);
    await joined;
    expect(io.names()).toEqual(["sendDelayed", "sendDelayed", "send", "send", "send"]);
    expect(manager.status.getSnapshot()).toBe("connected");

    const second = setup();
    second.io.failures["sendDelayed"] = Array.from({ length: 11 }, network);
    const failed = second.manager.join();
    await second.scheduler.advance(30_000);
    await failed;
    expect(second.io.names()).toHaveLength(11);
    expect(second.manager.status.getSnapshot()).toBe("error");
  });

  it("without delayed events says 'Server does not support the delayed events API' once and relies on expiry", async () => {
    const { io, manager, warnings } = setup({ delayedEvents: false });
    await manager.join();
    await manager.leave();
    await manager.join();
    expect(warnings.filter((w) => w === "Server does not support the delayed events API")).toHaveLength(1);
    expect(io.names()).toEqual(["send", "send", "send"]);
    expect(manager.usesDelayedEvents).toBe(false);
  });

  it("falls back when an old server sends the delayed leave at once", async () => {
    const { io, scheduler, manager, warnings } = setup();
    io.delayedAnswer = undefined;
    await manager.join();
    expect(warnings).toEqual(["Server does not support the delayed events API"]);
    expect(io.names()).toEqual(["sendDelayed", "send"]);
    await scheduler.advance(10_000);
    expect(io.names()).toEqual(["sendDelayed", "send"]);
  });

  it("leaves by sending the delayed leave now", async () => {
    const { io, scheduler, manager } = setup();
    await manager.join();
    expect(await manager.leave()).toBe(true);
    expect(io.calls.at(-1)).toEqual(["updateDelayed", "d1", "send"]);
    expect(manager.status.getSnapshot()).toBe("disconnected");
    await scheduler.advance(20_000);
    expect(io.names()).toEqual(["sendDelayed", "send", "updateDelayed:send"]);
    expect(scheduler.pending()).toEqual([]);
  });

  it("cancels the delayed leave and writes the leave when sending it fails", async () => {
    const { io, manager } = setup();
    await manager.join();
    io.failures["update:send"] = [notFound()];
    expect(await manager.leave()).toBe(true);
    expect(io.names().slice(2)).toEqual(["updateDelayed:send", "updateDelayed:cancel", "send"]);
    expect(io.calls.at(-1)).toEqual(["send", {}]);
    expect(await manager.leave()).toBe(false);
  });

  it("keeps restarting every 4000 ms while earlier restarts go unanswered (at most 4 in flight)", async () => {
    const { io, scheduler, manager } = setup();
    await manager.join();
    io.holdRestarts = true;
    // A stalled page or connection: the first restart's answer takes 20 s. The server must still
    // get a restart every 4 s, well inside its delay, or it sends the leave of a live member.
    await scheduler.advance(20_000);
    const restarts = (): number => io.names().filter((n) => n === "updateDelayed:restart").length;
    expect(restarts()).toBe(4);
    io.answerRestarts();
    await scheduler.advance(8000);
    expect(restarts()).toBe(6);
    expect(manager.status.getSnapshot()).toBe("connected");
  });

  it("joins once when several restarts in flight find the delayed leave gone", async () => {
    const { io, scheduler, manager } = setup();
    await manager.join();
    io.holdRestarts = true;
    await scheduler.advance(8000);
    io.holdRestarts = false;
    io.failures["update:restart"] = [notFound(), notFound()];
    await scheduler.advance(4000);
    expect(io.names().filter((n) => n === "sendDelayed")).toHaveLength(2);
    expect(manager.status.getSnapshot()).toBe("connected");
  });

  it("joins again when the restart finds the delayed leave gone (it fired)", async () => {
    const { io, scheduler, manager } = setup();
    await manager.join();
    io.failures["update:restart"] = [notFound()];
    await scheduler.advance(5000);
    expect(io.names()).toEqual(["sendDelayed", "send", "updateDelayed:restart", "sendDelayed", "send"]);
    expect(manager.status.getSnapshot()).toBe("connected");
  });

  it("on unload sends the delayed leave without waiting and stops every timer", async () => {
    const { io, scheduler, manager } = setup();
    await manager.join();
    manager.unload();
    expect(io.calls.at(-1)).toEqual(["updateDelayed", "d1", "send"]);
    await scheduler.advance(0);
    expect(scheduler.pending()).toEqual([]);
  });

  it("is evicted when another device of the user removes the membership while the delayed leave is pending", async () => {
    const { io, manager } = setup();
    await manager.join();
    await manager.ownMembershipChanged(true);
    await manager.ownMembershipChanged(false);
    expect(manager.status.getSnapshot()).toBe("evicted");
    expect(io.names().slice(2)).toEqual(["updateDelayed:restart", "updateDelayed:cancel"]);
  });

  it("joins again when the membership vanished because the delayed leave fired", async () => {
    const { io, manager } = setup();
    await manager.join();
    await manager.ownMembershipChanged(true);
    io.failures["update:restart"] = [notFound()];
    await manager.ownMembershipChanged(false);
    expect(manager.status.getSnapshot()).toBe("connected");
    expect(io.names().slice(2)).toEqual(["updateDelayed:restart", "sendDelayed", "send"]);
  });

  it("does not take a membership missing before its echo for an eviction", async () => {
    const { manager } = setup();
    await manager.join();
    await manager.ownMembershipChanged(false);
    expect(manager.status.getSnapshot()).toBe("connected");
  });
});
