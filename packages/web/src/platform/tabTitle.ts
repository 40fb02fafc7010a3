/**
 * The tab's title carries the unread count, "(3) Lattice", as Element and
 * Cinny do, so a background tab shows that something came in; plain
 * "Lattice" when nothing is unread or no one is signed in. Loaded after the
 * first screen (main.tsx): the title can wait, the first-screen budget not.
 */
import type { AppScreen } from "../state/AppViewModel";

const TITLE = "Lattice";

interface Watchable<T> {
  getSnapshot(): T;
  subscribe(listener: (value: T) => void): () => void;
}

/** Keeps `doc.title` in step with the signed-in client's unread total, for the page's life. */
export function followUnreadInTitle(screen: Watchable<AppScreen>, doc: { title: string }): void {
  let stop = (): void => undefined;
  const show = (s: AppScreen): void => {
    stop();
    stop = () => undefined;
    if (s.kind !== "client") {
      doc.title = TITLE;
      return;
    }
    const unread = s.vm.roomList.unreadTotal;
    const write = (n: number): void => {
      doc.title = n > 0 ? `(${n}) ${TITLE}` : TITLE;
    };
    write(unread.getSnapshot());
    stop = unread.subscribe(write);
  };
  show(screen.getSnapshot());
  screen.subscribe(show);
}
