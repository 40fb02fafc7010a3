/**
 * Service worker registration for the installable app, in production
 * builds only (the dev server's modules must never be cached). When an
 * update has installed while a previous version controls the page, it is
 * told to take over and the page reloads once onto the new shell.
 */
if (import.meta.env.PROD && "serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    // A first install (no worker controlled this page) takes over without a reload: the page is
    // already the current shell. Only an update replaces a previous controller.
    const hadController = navigator.serviceWorker.controller !== null;
    void navigator.serviceWorker
      .register("/sw.js")
      .then((registration) => {
        registration.addEventListener("updatefound", () => {
          const worker = registration.installing;
          worker?.addEventListener("statechange", () => {
            if (worker.state === "installed" && navigator.serviceWorker.controller !== null)
              worker.postMessage({ type: "SKIP_WAITING" });
          });
        });
        let reloaded = false;
        navigator.serviceWorker.addEventListener("controllerchange", () => {
          if (reloaded || !hadController || registration.active === null) return;
          reloaded = true;
          window.location.reload();
        });
      })
      .catch(() => undefined);
  });
}
