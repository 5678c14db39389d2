// The live event page: fresh counts from the hub's server-sent events (GET /events/{id}/live),
// without a reload. The hub sends a "counts" event whenever the event changes.
"use strict";
(function () {
  const root = document.getElementById("live");
  if (!root || !window.EventSource) return;
  const status = document.getElementById("live-status");
  const groups = document.getElementById("live-groups");

  function offline(words) {
    status.textContent = words;
    status.classList.add("offline");
  }

  // A stream closed for good: the session ended, the event is no longer ours, or this person
  // has as many live pages open as the hub allows (429). Reloading shows the sign-in page or the
  // 404 instead of stale counts; a refused stream is tried again later, never reloaded in a loop.
  function closed() {
    fetch(root.dataset.liveUrl, { headers: { Accept: "text/event-stream" }, redirect: "manual" })
      .then(function (response) {
        if (response.status !== 429) {
          if (response.body) response.body.cancel();
          setTimeout(function () { location.reload(); }, 1000);
          return;
        }
        const seconds = Math.max(5, parseInt(response.headers.get("Retry-After") || "10", 10) || 10);
        offline("Too many live pages open for your account: close one (another tab or window). Trying again in " + seconds + " s");
        setTimeout(connect, seconds * 1000);
      })
      .catch(function () {
        offline("Hub unreachable: trying again in 10 s");
        setTimeout(connect, 10000);
      });
  }

  function connect() {
    const source = new EventSource(root.dataset.liveUrl);
    source.addEventListener("open", function () {
      status.textContent = "Live";
      status.classList.remove("offline");
    });
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        closed();
      } else {
        // EventSource reconnects by itself; say so meanwhile.
        offline("Reconnecting…");
      }
    });
    source.addEventListener("counts", function (message) {
      const counts = JSON.parse(message.data);
      for (const element of root.querySelectorAll("[data-count]")) {
        const value = counts[element.dataset.count];
        if (value !== undefined) element.textContent = String(value);
      }
      // Rendered and escaped by the hub from the same template as the first page.
      if (typeof counts.groupsHTML === "string") groups.innerHTML = counts.groupsHTML;
    });
  }

  connect();
})();
