// Keeps the page current: each change arrives over Server-Sent Events as the board's new HTML,
// rendered and escaped by the server. EventSource reconnects by itself after a lost
// connection, and the server then sends the whole board again (caught up). A revoked link ends
// the stream, or answers 404 when the page reconnects: either way the page says so and stops.
"use strict";
(function () {
  const board = document.getElementById("board");
  const status = document.getElementById("status");
  function times() {
    for (const t of board.querySelectorAll("time[datetime]")) {
      // In the page's language (a Spanish page reads 22:25, whatever the browser's own).
      const lang = document.documentElement.lang || undefined;
      t.textContent = new Date(t.dateTime).toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
    }
  }
  function live(on) {
    status.classList.toggle("lost", !on);
    status.textContent = on ? status.dataset.live : status.dataset.lost;
  }
  function gone() {
    board.hidden = true;
    document.getElementById("gone").hidden = false;
    status.hidden = true;
  }
  function follow() {
    const stream = new EventSource(location.pathname.replace(/\/$/, "") + "/live" + location.search);
    stream.addEventListener("table", (e) => { board.innerHTML = e.data; times(); live(true); });
    stream.addEventListener("revoked", () => { stream.close(); gone(); });
    stream.onopen = () => live(true);
    stream.onerror = () => {
      live(false);
      if (stream.readyState !== EventSource.CLOSED) return;  // it reconnects by itself
      fetch(location.href, { method: "HEAD", cache: "no-store" })
        .then((r) => { if (r.status === 404) gone(); else setTimeout(follow, 3000); })
        .catch(() => setTimeout(follow, 3000));
    };
  }
  times();
  follow();
})();
