/**
 * Placeholder shell of the Lattice web app until the chat client lands.
 */
export function App(): React.JSX.Element {
  const homeserver = (import.meta.env["VITE_LATTICE_HOMESERVER"] as string | undefined) ?? "not configured";
  return (
    <main style={{ fontFamily: "system-ui, sans-serif", padding: "2rem" }}>
      <h1>Lattice</h1>
      <p>The web client is being built. Homeserver: {homeserver}</p>
    </main>
  );
}
