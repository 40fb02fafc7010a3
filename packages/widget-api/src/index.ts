/**
 * Public entry point of the Lattice widget API.
 */
export {};
