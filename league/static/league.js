// The organiser's page: tiles kept live by Server-Sent Events; standings and ratings
// reloaded when a round ends somewhere.
"use strict";
(function () {
  const board = document.getElementById("board");
  const conn = document.getElementById("conn");

  function tileFor(name) {
    let el = board.querySelector(`.tile[data-table="${CSS.escape(name)}"]`);
    if (!el) {
      el = document.createElement("article");
      el.className = "tile";
      el.dataset.table = name;
      el.innerHTML = '<h2></h2><div class="meta"></div><div class="top"><span class="card"></span> ' +
        '<span class="turn"></span></div><ul class="hands"></ul><ul class="alerts"></ul>';
      el.querySelector("h2").textContent = name;
      board.appendChild(el);
    }
    return el;
  }

  function draw(t) {
    const el = tileFor(t.table);
    const s = t.state || {};
    el.dataset.seq = t.seq == null ? "" : String(t.seq);
    el.dataset.at = t.at == null ? "" : String(t.at);
    el.querySelector(".meta").textContent = t.match == null ? "no match yet"
      : `match ${t.match} · ${t.rules} · event ${t.seq}`;
    const card = el.querySelector(".card");
    card.textContent = s.top || "—";
    card.className = "card " + (s.color || "");
    card.dataset.card = s.top || "";
    const turn = el.querySelector(".turn");
    turn.textContent = s.turn ? `${s.turn} to play` : (t.type === "end-round" ? "round over" : "");
    turn.dataset.turn = s.turn || "";
    const hands = el.querySelector(".hands");
    hands.replaceChildren();
    for (const [player, count] of Object.entries(s.hands || {})) {
      const li = document.createElement("li");
      li.textContent = `${player} ${count}`;
      li.dataset.player = player;
      if (player === s.turn) li.className = "on-turn";
      hands.appendChild(li);
    }
    const alerts = el.querySelector(".alerts");
    alerts.replaceChildren();
    for (const a of t.alerts || []) {
      const li = document.createElement("li");
      li.textContent = a.message;
      li.dataset.code = a.code;
      alerts.appendChild(li);
    }
    el.classList.toggle("alerting", (t.alerts || []).some((a) => a.seq === t.seq));
  }

  async function reloadSummary() {
    const response = await fetch("/parts/summary" + window.location.search);
    if (response.ok) document.getElementById("summary").innerHTML = await response.text();
  }

  JSON.parse(document.getElementById("initial-board").textContent).forEach(draw);

  let summaryTimer = null;
  const source = new EventSource("/api/stream");
  source.onopen = () => conn.classList.add("on");
  source.onerror = () => conn.classList.remove("on");
  source.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.kind === "board") { m.tables.forEach(draw); reloadSummary(); }
    else if (m.kind === "tile") draw(m.tile);
    else if (m.kind === "round" && !summaryTimer) {
      summaryTimer = setTimeout(() => { summaryTimer = null; reloadSummary(); }, 500);
    }
    document.body.dataset.messages = String(Number(document.body.dataset.messages || 0) + 1);
  };
})();
