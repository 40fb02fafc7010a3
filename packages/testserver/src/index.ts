/**
 * Public entry point of the Lattice test homeserver.
 */
export {};
