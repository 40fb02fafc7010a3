/**
 * The XSS test page: renders every hostile payload of the corpus through the
 * app's own FormattedBody (sanitiser + React conversion) under the app's
 * CSP. Media loads are recorded, never answered, so the test can see that
 * only mxc URIs were asked for. window.__latticeRendered says when done.
 */
import { createRoot } from "react-dom/client";
import { FormattedBody } from "../../src/features/timeline/FormattedBody";
import { pageSanitiser, startParserFrame } from "../../src/features/timeline/html/parserFrame";
import { HOSTILE_PAYLOADS } from "../../src/features/timeline/html/hostile-corpus";
import { MediaContext } from "../../src/features/timeline/MediaContext";
import type { MediaSource } from "../../src/features/timeline/MediaContext";
import "../../src/styles/global.css";

interface XssWindow {
  __latticeMedia: string[];
  __latticeRendered?: boolean;
}
const w = window as unknown as XssWindow;
w.__latticeMedia = [];

const media: MediaSource = {
  load: ({ mxc }) => {
    w.__latticeMedia.push(mxc);
    return new Promise<string>(() => undefined);
  },
};

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <MediaContext.Provider value={media}>
      <main>
        {HOSTILE_PAYLOADS.map((p) => (
          <section key={p.name} data-payload={p.name}>
            <h2>{p.name}</h2>
            <FormattedBody
              content={{ body: p.name, format: "org.matrix.custom.html", formatted_body: p.html }}
            />
          </section>
        ))}
      </main>
    </MediaContext.Provider>,
  );
  startParserFrame(import.meta.env.BASE_URL);
  // Rendered once the parser frame is ready and React has re-rendered with the HTML.
  const unsubscribe = pageSanitiser.subscribe((s) => {
    if (s === null) return;
    unsubscribe();
    setTimeout(() => {
      w.__latticeRendered = true;
    }, 50);
  });
}
