/**
 * End-to-end encryption key management (api/client-server/keys.yaml and
 * cross_signing.yaml): upload, query and claim device keys, upload
 * cross-signing keys (behind interactive auth) and signatures, and the
 * device-list changes between two sync tokens. The crypto layer drives these;
 * no state here.
 */
import type { HttpApi } from "../http/types";
import type {
  ClaimKeysRequest,
  ClaimKeysResponse,
  KeyChangesResponse,
  QueryKeysRequest,
  QueryKeysResponse,
  UploadCrossSigningKeysRequest,
  UploadKeysRequest,
  UploadKeysResponse,
  UploadSignaturesRequest,
  UploadSignaturesResponse,
} from "./types/keys";

/** POST /keys/upload: publishes device keys, one-time keys and fallback keys. */
export function uploadKeys(http: HttpApi, body: UploadKeysRequest): Promise<UploadKeysResponse> {
  return http.request<UploadKeysResponse>({ method: "POST", path: "/keys/upload", body });
}

/** POST /keys/query: device and cross-signing keys of the given users. */
export function queryKeys(http: HttpApi, body: QueryKeysRequest): Promise<QueryKeysResponse> {
  return http.request<QueryKeysResponse>({ method: "POST", path: "/keys/query", body });
}

/** POST /keys/claim: claims one-time keys to start Olm sessions. */
export function claimKeys(http: HttpApi, body: ClaimKeysRequest): Promise<ClaimKeysResponse> {
  return http.request<ClaimKeysResponse>({ method: "POST", path: "/keys/claim", body });
}

/** GET /keys/changes: users whose device lists changed between two sync tokens. */
export function getKeyChanges(http: HttpApi, from: string, to: string): Promise<KeyChangesResponse> {
  return http.request<KeyChangesResponse>({ method: "GET", path: "/keys/changes", query: { from, to } });
}

/**
 * POST /keys/device_signing/upload: publishes cross-signing keys. The server
 * answers 401 with the auth flows first; the auth layer then repeats the
 * call with `auth` filled in.
 */
export function uploadCrossSigningKeys(
  http: HttpApi,
  body: UploadCrossSigningKeysRequest,
): Promise<Record<string, never>> {
  return http.request<Record<string, never>>({ method: "POST", path: "/keys/device_signing/upload", body });
}

/** POST /keys/signatures/upload: publishes signatures of devices and cross-signing keys. */
export function uploadSignatures(
  http: HttpApi,
  body: UploadSignaturesRequest,
): Promise<UploadSignaturesResponse> {
  return http.request<UploadSignaturesResponse>({ method: "POST", path: "/keys/signatures/upload", body });
}
