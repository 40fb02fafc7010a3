/** org.matrix.msc2931.navigate: ask the client to open a matrix.to link. */

/** Every navigation URI must begin with this prefix. */
export const MATRIX_TO_PREFIX = "https://matrix.to/#";

/** navigate request data. */
export interface NavigateRequestData {
  uri: string;
}
