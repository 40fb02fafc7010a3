/**
 * The URL preview settings (urlPreviewPolicy.ts has the rules): for the
 * account, whether previews are on (`org.matrix.preview_urls`) and whether
 * links from strangers are previewed (`io.lattice.url_previews`); for a
 * room, the reader's own choice (room account data
 * `org.matrix.room.preview_urls`: on, off, or the room's default) and, for
 * those allowed to set it, the room's default for everyone (the state
 * event of the same type).
 */
import type { Client } from "../../sdk";
import { ObservableValue } from "../observables";
import {
  PREVIEW_STRANGERS_TYPE,
  PREVIEW_URLS_ACCOUNT_TYPE,
  PREVIEW_URLS_ROOM_TYPE,
  accountPreviewSettings,
  roomPreviewSettings,
} from "../timeline/urlPreviewPolicy";

/** The reader's choice for one room. */
export type RoomPreviewChoice = "default" | "on" | "off";

type PreviewClient = Pick<Client, "rooms" | "accountData" | "state">;

export class UrlPreviewSettings {
  /** Previews on for the account (rooms may still decide otherwise). */
  readonly enabled: ObservableValue<boolean>;
  /** Links from senders who share no joined room with us are previewed too. */
  readonly strangers: ObservableValue<boolean>;

  constructor(private readonly client: PreviewClient) {
    const account = accountPreviewSettings(client);
    this.enabled = new ObservableValue(account.accountDisable !== true);
    this.strangers = new ObservableValue(account.allowStrangers);
  }

  async setEnabled(on: boolean): Promise<void> {
    await this.client.accountData.set(PREVIEW_URLS_ACCOUNT_TYPE, { disable: !on });
    this.enabled.set(on);
  }

  async setStrangers(on: boolean): Promise<void> {
    await this.client.accountData.set(PREVIEW_STRANGERS_TYPE, { strangers: on });
    this.strangers.set(on);
  }

  /** The reader's choice for `roomId`. */
  roomChoice(roomId: string): RoomPreviewChoice {
    const { roomChoice } = roomPreviewSettings(this.client.rooms.get(roomId));
    return roomChoice === undefined ? "default" : roomChoice ? "off" : "on";
  }

  async setRoomChoice(roomId: string, choice: RoomPreviewChoice): Promise<void> {
    await this.client.accountData.setRoom(
      roomId,
      PREVIEW_URLS_ROOM_TYPE,
      choice === "default" ? {} : { disable: choice === "off" },
    );
  }

  /** Whether the room's default (its state event) has previews on. */
  roomDefault(roomId: string): boolean {
    return roomPreviewSettings(this.client.rooms.get(roomId)).roomDefault !== true;
  }

  /** Sets the room's default for everyone (needs the power to send the state event). */
  async setRoomDefault(roomId: string, on: boolean): Promise<void> {
    await this.client.state.setState(roomId, PREVIEW_URLS_ROOM_TYPE, "", { disable: !on });
  }
}
