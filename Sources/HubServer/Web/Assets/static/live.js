// The live event page: fresh counts from the hub's server-sent events (GET /events/{id}/live),
// without a reload. The hub sends a "counts" event whenever the event changes.
"use strict";
(function () {
  const root = document.getElementById("live");
  if (!root || !window.EventSource) return;
  const status = document.getElementById("live-status");
  const groups = document.getElementById("live-groups");
  const source = new EventSource(root.dataset.liveUrl);
  source.addEventListener("open", function () {
    status.textContent = "Live";
    status.classList.remove("offline");
  });
  source.addEventListener("error", function () {
    // EventSource reconnects by itself; say so meanwhile.
    status.textContent = "Reconnecting…";
    status.classList.add("offline");
    // Closed for good: the session ended or the event is no longer ours. Reloading shows
    // the sign-in page or the 404 instead of stale counts.
    if (source.readyState === EventSource.CLOSED) setTimeout(function () { location.reload(); }, 1000);
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
})();
