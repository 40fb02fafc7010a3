/**
 * Widget API versions. Both sides advertise these in supported_api_versions;
 * the widget side uses the client's list to refuse actions an old client
 * cannot serve, and the host uses the widget's list to decide whether to push
 * update_state.
 */

/** Stable pre-release versions. */
export const MatrixApiVersion = { Prerelease1: "0.0.1", Prerelease2: "0.0.2" } as const;

/** Unstable feature versions, named by MSC. */
export const UnstableApiVersion = {
  MSC2762: "org.matrix.msc2762",
  MSC2762UpdateState: "org.matrix.msc2762_update_state",
  MSC2871: "org.matrix.msc2871",
  MSC2873: "org.matrix.msc2873",
  MSC2931: "org.matrix.msc2931",
  MSC2974: "org.matrix.msc2974",
  MSC2876: "org.matrix.msc2876",
  MSC3819: "org.matrix.msc3819",
  MSC3846: "town.robin.msc3846",
  MSC3869: "org.matrix.msc3869",
  MSC3973: "org.matrix.msc3973",
  MSC4039: "org.matrix.msc4039",
  MSC4157: "org.matrix.msc4157",
  MSC4515: "org.matrix.msc4515",
} as const;

/** Every version this package speaks, on both sides. */
export const CURRENT_API_VERSIONS: readonly string[] = [
  ...Object.values(MatrixApiVersion),
  ...Object.values(UnstableApiVersion),
];

/** supported_api_versions response body. */
export interface SupportedVersionsResponse {
  supported_versions: string[];
}
