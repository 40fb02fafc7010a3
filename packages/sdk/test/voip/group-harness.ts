/**
 * A room for mesh group call tests: shared member state, joined users, and
 * to-device delivery between the members' GroupCalls, on fake time and fake
 * peers.
 */
import { GroupCall } from "../../src/voip/group/GroupCall";
import type { GroupCallContent } from "../../src/voip/group/types";
import type { CallContent } from "../../src/voip/call/types";
import { FakeScheduler } from "../support/fake-scheduler";
import { FakeNetwork } from "./fakes";
import type { FakePlatform } from "./fakes";

export const GROUP_ROOM = "!group:hs";
export const GROUP_ID = "1700000000000ABCDEFGHIJKLMNOP";

export interface Member {
  userId: string;
  deviceId: string;
  platform: FakePlatform;
  call: GroupCall;
  toDevice: Array<{ userId: string; deviceId: string; type: string; content: CallContent }>;
}

export class GroupRoom {
  readonly scheduler = new FakeScheduler([0.3]);
  readonly network = new FakeNetwork();
  readonly memberState = new Map<string, unknown>();
  readonly joined = new Set<string>();
  readonly stateSends: Array<{ type: string; stateKey: string; content: Record<string, unknown> }> = [];
  readonly members: Member[] = [];
  unknownDevices = new Set<string>();

  constructor(readonly content: GroupCallContent = { "m.type": "m.video", "m.intent": "m.room" }) {}

  add(userId: string, deviceId: string, sessionId = `session-${deviceId}`): Member {
    this.joined.add(userId);
    const platform = this.network.platform();
    const member: Member = {
      userId,
      deviceId,
      platform,
      toDevice: [],
      call: undefined as unknown as GroupCall,
    };
    member.call = new GroupCall({
      roomId: GROUP_ROOM,
      groupCallId: GROUP_ID,
      content: this.content,
      userId,
      deviceId,
      sessionId,
      platform,
      scheduler: this.scheduler,
      iceServers: () => [],
      room: { memberStates: () => this.memberState, isJoined: (u) => this.joined.has(u) },
      transport: {
        sendState: (type, stateKey, content) => {
          this.stateSends.push({ type, stateKey, content });
          if (type === "org.matrix.msc3401.call.member") this.setMemberState(stateKey, content);
          return Promise.resolve();
        },
        sendToDevice: (toUser, toDevice, type, content) => {
          if (this.unknownDevices.has(toDevice)) {
            return import("../../src/voip/group/types").then(({ GroupCallError }) => {
              throw new GroupCallError("unknown_device", "unknown");
            });
          }
          member.toDevice.push({ userId: toUser, deviceId: toDevice, type, content });
          const target = this.members.find((m) => m.userId === toUser && m.deviceId === toDevice);
          if (target) queueMicrotask(() => void target.call.onToDevice(userId, type, content));
          return Promise.resolve();
        },
      },
    });
    this.members.push(member);
    return member;
  }

  /** Sets a member state event and tells every group call. */
  setMemberState(userId: string, content: unknown): void {
    this.memberState.set(userId, content);
    queueMicrotask(() => {
      for (const m of this.members) m.call.onMemberStateChanged();
    });
  }
}
