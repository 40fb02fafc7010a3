/**
 * Finding rooms and people: the public room directory (with a filter and
 * paging), the user directory, alias resolution, a space's hierarchy, the
 * rooms shared with a user (Mutual Rooms, behind its support check: 'Server
 * does not support the Mutual Rooms API') and a room's summary.
 */
import { publicRooms, resolveAlias, searchPublicRooms } from "../../api/directory";
import { getAllMutualRooms, mutualRoomsSupport } from "../../api/mutual-rooms";
import { hierarchy, roomSummary } from "../../api/rooms";
import type {
  HierarchyParams,
  HierarchyResponse,
  PublicRoomsResponse,
  PublicRoomsSearch,
  ResolveAliasResponse,
  RoomSummaryResponse,
} from "../../api/types/rooms";
import type { VersionsResponse } from "../../api/types/server";
import type { UserDirectorySearchResponse } from "../../api/types/user-directory";
import { searchUserDirectory } from "../../api/user-directory";
import type { HttpApi } from "../../http/types";

export interface DirectoryServiceOptions {
  http: HttpApi;
  /** The server's versions document (the facade caches it). */
  versions: () => Promise<VersionsResponse>;
}

export class DirectoryService {
  constructor(private readonly options: DirectoryServiceOptions) {}

  /**
   * One page of the public room directory. With a filter (or third-party
   * options) it is the POST search; otherwise the plain GET. Pass the
   * answer's next_batch as `since` for the next page.
   */
  publicRooms(search: PublicRoomsSearch = {}): Promise<PublicRoomsResponse> {
    const needsPost =
      search.filter !== undefined ||
      search.include_all_networks !== undefined ||
      search.third_party_instance_id !== undefined;
    if (needsPost) return searchPublicRooms(this.options.http, search);
    return publicRooms(this.options.http, {
      ...(search.limit !== undefined ? { limit: search.limit } : {}),
      ...(search.since !== undefined ? { since: search.since } : {}),
      ...(search.server !== undefined ? { server: search.server } : {}),
    });
  }

  /** Users matching a term (display name or id), at most `limit`. */
  searchUsers(term: string, limit?: number): Promise<UserDirectorySearchResponse> {
    return searchUserDirectory(this.options.http, term, limit);
  }

  /** The room an alias points at, and servers to join through. */
  resolveAlias(alias: string): Promise<ResolveAliasResponse> {
    return resolveAlias(this.options.http, alias);
  }

  /** One page of a space's hierarchy. */
  hierarchy(spaceId: string, params: HierarchyParams = {}): Promise<HierarchyResponse> {
    return hierarchy(this.options.http, spaceId, params);
  }

  /** Whether the server offers the Mutual Rooms API. */
  async supportsMutualRooms(): Promise<boolean> {
    return mutualRoomsSupport(await this.options.versions()) !== null;
  }

  /** Every room the user shares with `userId`. */
  async mutualRooms(userId: string): Promise<string[]> {
    return getAllMutualRooms(this.options.http, await this.options.versions(), userId);
  }

  /** A room's summary (name, topic, members, join rule), also for rooms the user is not in. */
  roomSummary(roomIdOrAlias: string, via?: readonly string[]): Promise<RoomSummaryResponse> {
    return roomSummary(this.options.http, roomIdOrAlias, via ? { via } : {});
  }
}
