/**
 * Account data (global and per room) and room tags. Reading account data
 * that does not exist gives null rather than an error (SPEC §7). Deletion is
 * MSC3391's unstable DELETE; servers without it get an empty PUT, which is
 * how deleted account data looks to every other client.
 */
import { isUnrecognisedError, MatrixError } from "../http/errors";
import type { HttpApi } from "../http/types";
import { encodePath } from "../http/types";
import type { AccountDataContent, Tag, TagsResponse } from "./types/account-data";
import { ACCOUNT_DATA_DELETION_PREFIX } from "./unstable";

function isNotFound(err: unknown): boolean {
  return err instanceof MatrixError && err.errcode === "M_NOT_FOUND";
}

/** PUT /user/{userId}/account_data/{type} */
export async function setAccountData(
  http: HttpApi,
  userId: string,
  type: string,
  content: AccountDataContent,
): Promise<void> {
  await http.request<unknown>({
    method: "PUT",
    path: encodePath`/user/${userId}/account_data/${type}`,
    body: content,
  });
}

/** GET /user/{userId}/account_data/{type}; null when the user has none of this type. */
export async function getAccountData(
  http: HttpApi,
  userId: string,
  type: string,
): Promise<AccountDataContent | null> {
  try {
    return await http.request<AccountDataContent>({
      method: "GET",
      path: encodePath`/user/${userId}/account_data/${type}`,
    });
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/**
 * DELETE /user/{userId}/account_data/{type} (MSC3391, unstable prefix).
 * Where the server does not recognise the call, the content is set to {}
 * instead; where the data is already absent, nothing is left to do.
 */
export async function deleteAccountData(http: HttpApi, userId: string, type: string): Promise<void> {
  try {
    await http.request<unknown>({
      method: "DELETE",
      prefix: ACCOUNT_DATA_DELETION_PREFIX.unstable,
      path: encodePath`/user/${userId}/account_data/${type}`,
    });
  } catch (err) {
    if (isNotFound(err)) return;
    if (!isUnrecognisedError(err)) throw err;
    await setAccountData(http, userId, type, {});
  }
}

/** PUT /user/{userId}/rooms/{roomId}/account_data/{type} */
export async function setRoomAccountData(
  http: HttpApi,
  userId: string,
  roomId: string,
  type: string,
  content: AccountDataContent,
): Promise<void> {
  await http.request<unknown>({
    method: "PUT",
    path: encodePath`/user/${userId}/rooms/${roomId}/account_data/${type}`,
    body: content,
  });
}

/** GET /user/{userId}/rooms/{roomId}/account_data/{type}; null when absent. */
export async function getRoomAccountData(
  http: HttpApi,
  userId: string,
  roomId: string,
  type: string,
): Promise<AccountDataContent | null> {
  try {
    return await http.request<AccountDataContent>({
      method: "GET",
      path: encodePath`/user/${userId}/rooms/${roomId}/account_data/${type}`,
    });
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

/** GET /user/{userId}/rooms/{roomId}/tags */
export function getRoomTags(http: HttpApi, userId: string, roomId: string): Promise<TagsResponse> {
  return http.request<TagsResponse>({
    method: "GET",
    path: encodePath`/user/${userId}/rooms/${roomId}/tags`,
  });
}

/** PUT /user/{userId}/rooms/{roomId}/tags/{tag} */
export async function setRoomTag(
  http: HttpApi,
  userId: string,
  roomId: string,
  tag: string,
  content: Tag = {},
): Promise<void> {
  await http.request<unknown>({
    method: "PUT",
    path: encodePath`/user/${userId}/rooms/${roomId}/tags/${tag}`,
    body: content,
  });
}

/** DELETE /user/{userId}/rooms/{roomId}/tags/{tag} */
export async function deleteRoomTag(
  http: HttpApi,
  userId: string,
  roomId: string,
  tag: string,
): Promise<void> {
  await http.request<unknown>({
    method: "DELETE",
    path: encodePath`/user/${userId}/rooms/${roomId}/tags/${tag}`,
  });
}
