// The referee's tablet. Live state arrives over Server-Sent Events (/api/stream);
// every control posts one DESIGN.md event to /api/events with the referee's token.
"use strict";

(function () {
  const $ = (sel) => document.querySelector(sel);
  const VALUES = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "reverse", "draw2"];
  const SEAT_COLORS = ["#e84a4a", "#f0c419", "#3cb371", "#3b82f6", "#c084fc", "#fb923c", "#22d3ee", "#f472b6", "#a3e635", "#94a3b8"];

  const page = window.UnoPage;
  const { COLORS, el, cardColor } = page;
  // A referee link carries ?token=...: it is kept on this device and dropped from the URL.
  const ui = {
    lang: page.initialLang(),
    sound: localStorage.getItem("uno.sound") !== "off",
    token: page.takeToken(),
    snapshot: null,
    health: null,
    log: [],
    audio: null,
    alerts: null,
  };

  // -- words ---------------------------------------------------------------------

  function t(key, vars) { return page.translate(ui.lang, key, vars); }

  function cardLabel(card) { return window.WORDS.cardName(card, ui.lang); }

  function alertText(alert) { return window.WORDS.sentence(alert, ui.lang); }

  function applyLanguage() {
    page.showLanguage(ui.lang);
    renderSound();
    $("#btn-referee").textContent = t(ui.token ? "referee_on" : "referee");
    if (ui.snapshot) render(ui.snapshot);
    renderHealth(ui.health);
    renderLog();
    if (ui.alerts && !$("#alert").hidden) showAlert(ui.alerts, true);
    document.dispatchEvent(new CustomEvent("uno:changed"));
  }

  // -- sound (generated, no asset) ------------------------------------------------

  // A browser plays sound only after a tap on the page: until then the button says so
  // rather than "Sound on" over a silent page.
  function audioReady() { return !!ui.audio && ui.audio.state === "running"; }

  function renderSound() {
    const key = !ui.sound ? "sound_off" : audioReady() ? "sound_on" : "sound_tap";
    $("#btn-sound").textContent = t(key);
    document.body.dataset.sound = key;
  }

  function unlockAudio() {
    if (!ui.audio) {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      ui.audio = new Ctx();
      ui.audio.addEventListener("statechange", renderSound);
    }
    if (ui.audio.state === "suspended") ui.audio.resume().then(renderSound, renderSound);
    renderSound();
  }

  function beep() {
    if (!ui.sound) return;
    unlockAudio();
    const ctx = ui.audio;
    if (!ctx) return;
    if (ctx.state === "suspended") ctx.resume();
    const now = ctx.currentTime;
    [0, 0.22].forEach((offset, i) => {
      const osc = ctx.createOscillator(), gain = ctx.createGain();
      osc.type = "square";
      osc.frequency.value = i ? 660 : 880;
      gain.gain.setValueAtTime(0.0001, now + offset);
      gain.gain.exponentialRampToValueAtTime(0.3, now + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + offset + 0.18);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + offset);
      osc.stop(now + offset + 0.2);
    });
    document.body.dataset.beeps = String(Number(document.body.dataset.beeps || 0) + 1);
  }

  // -- rendering ------------------------------------------------------------------

  function players(snap) {
    const g = snap.game || {};
    return g.players && g.players.length ? g.players : snap.match.players;
  }

  function render(snap) {
    ui.snapshot = snap;
    // A question answered (here, elsewhere, or taken back): its buttons go.
    document.querySelectorAll(".ask-options").forEach((row) => {
      if (!snap.question || String(snap.question.question) !== row.dataset.question) row.remove();
    });
    const g = snap.game || {};
    document.body.dataset.n = String(snap.n);
    document.body.dataset.match = String(snap.match.id);
    $("#match-info").textContent = t("match_label", { id: snap.match.id, rules: snap.match.rules });
    renderRules(snap.rule_set || snap.match.rule_set);

    const top = $("#top-card");
    top.textContent = cardLabel(g.top);
    top.className = "card-face " + (g.top ? cardColor(g.top) : "empty");
    top.dataset.card = g.top || "";
    $("#color-swatch").className = "swatch " + (g.color || "none");
    $("#color-name").textContent = g.color ? t(g.color) : "–";
    const ccw = g.direction && g.direction !== "clockwise";
    $("#direction").classList.toggle("ccw", !!ccw);
    $("#direction-name").textContent = g.direction ? t(ccw ? "counterclockwise" : "clockwise") : "–";
    $("#turn").textContent = g.turn || "–";
    const pending = Number(g.pending_draw || 0);
    $("#pending").textContent = pending ? "+" + pending : t("none");
    $("#pending").classList.toggle("hot", pending > 0);
    $("#btn-draw").textContent = pending ? t("draw_n", { n: pending }) : t("draw");
    $("#round-info").textContent = g.in_round
      ? t("round_label", { n: g.round, d: g.dealer || "–" })
      : t("no_round");

    const seats = $("#seats");
    seats.replaceChildren();
    const hands = g.hands || {};
    players(snap).forEach((p, i) => {
      const count = hands[p];
      const li = el("li", { class: "seat" + (p === g.turn ? " turn" : ""), "data-player": p },
        el("span", { class: "seat-dot", style: "background:" + SEAT_COLORS[i % SEAT_COLORS.length] }),
        el("span", { class: "seat-name" }, p),
        el("span", { class: "seat-count" + (count === 1 ? " one" : "") },
          count === undefined ? "–" : window.WORDS.cards(count, ui.lang)));
      if (ui.token) {
        li.append(
          el("button", { class: "small", onclick: () => send({ type: "uno", player: p }) }, t("uno")),
          el("button", { class: "small warn", onclick: () => openCatch(p) }, t("catch")));
      }
      seats.append(li);
    });
    renderScores(snap);
  }

  function roundPoints(entry) {
    if (!entry) return {};
    return entry.points && typeof entry.points === "object" ? entry.points : entry;
  }

  function renderScores(snap) {
    const g = snap.game || {};
    const ps = players(snap);
    const rounds = g.round_scores || [];
    const table = $("#scores");
    table.replaceChildren();
    table.append(el("tr", {}, el("th", {}, ""), ...ps.map((p) => el("th", {}, p))));
    const running = Object.fromEntries(ps.map((p) => [p, 0]));
    const series = [ps.map(() => 0)];
    rounds.forEach((r, i) => {
      const pts = roundPoints(r);
      ps.forEach((p) => { running[p] += Number(pts[p] || 0); });
      series.push(ps.map((p) => running[p]));
      table.append(el("tr", {}, el("th", {}, t("round_n", { n: i + 1 }) + (r.winner ? " · " + r.winner : "")),
        ...ps.map((p) => el("td", {}, String(pts[p] || 0)))));
    });
    const totals = g.totals || running;
    table.append(el("tr", { class: "total" }, el("th", {}, t("total")),
      ...ps.map((p) => el("td", {}, String(totals[p] || 0)))));
    drawChart(ps, series);
    $("#chart-legend").replaceChildren(...ps.map((p, k) => el("span", { class: "legend-item" },
      el("span", { class: "seat-dot", style: "background:" + SEAT_COLORS[k % SEAT_COLORS.length] }), p)));
    const winner = $("#winner");
    winner.hidden = !g.match_winner;
    winner.textContent = g.match_winner ? t("match_winner", { p: g.match_winner }) : "";
  }

  // A hand-drawn line chart of running totals, one line per player.
  function drawChart(ps, series) {
    const svg = $("#chart");
    const W = 400, H = 200, L = 36, B = 20, T = 8, R = 8;
    const ns = "http://www.w3.org/2000/svg";
    const mk = (tag, attrs, text) => {
      const n = document.createElementNS(ns, tag);
      for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
      if (text !== undefined) n.textContent = text;
      return n;
    };
    svg.replaceChildren();
    let lo = 0, hi = 1;
    series.forEach((row) => row.forEach((v) => { lo = Math.min(lo, v); hi = Math.max(hi, v); }));
    const n = Math.max(series.length - 1, 1);
    const x = (i) => L + (i / n) * (W - L - R);
    const y = (v) => T + (1 - (v - lo) / (hi - lo)) * (H - T - B);
    svg.append(mk("line", { x1: L, y1: y(0), x2: W - R, y2: y(0), class: "axis" }));
    svg.append(mk("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }));
    svg.append(mk("text", { x: L - 4, y: y(hi) + 4, class: "tick", "text-anchor": "end" }, String(hi)));
    if (lo < 0) svg.append(mk("text", { x: L - 4, y: y(lo), class: "tick", "text-anchor": "end" }, String(lo)));
    for (let i = 0; i <= n && series.length > 1; i++) {
      svg.append(mk("text", { x: x(i), y: H - 4, class: "tick", "text-anchor": "middle" }, String(i)));
    }
    ps.forEach((p, k) => {
      const pts = series.map((row, i) => x(i).toFixed(1) + "," + y(row[k]).toFixed(1)).join(" ");
      const color = SEAT_COLORS[k % SEAT_COLORS.length];
      svg.append(mk("polyline", { points: pts, fill: "none", stroke: color, "stroke-width": 3, "data-player": p }));
      const last = series[series.length - 1][k];
      svg.append(mk("circle", { cx: x(series.length - 1), cy: y(last), r: 4, fill: color }));
    });
  }

  function renderHealth(h) {
    const box = $("#health");
    if (!h) { box.hidden = true; return; }
    ui.health = h;
    const lines = [];
    const cam = h.camera || {};
    if (cam.state !== "ok") {
      const said = t("cam_" + cam.state);
      const word = said === "cam_" + cam.state ? cam.state : said;
      lines.push(t("camera_off", { m: word + (cam.message ? " (" + cam.message + ")" : "") }));
    }
    const rec = h.recognition || {};
    if (!rec.available) lines.push(t("recognition_off", { m: rec.message || "" }));
    if (rec.takeback_held_s_ago != null) lines.push(t("takeback_held"));
    const behind = fallingBehind(cam, rec);
    if (behind) lines.unshift(t("recognition_behind", behind));
    box.textContent = lines.join(" · ");
    box.classList.toggle("behind", !!behind);
    box.dataset.behind = behind ? "1" : "";
    box.hidden = lines.length === 0;
    document.body.dataset.camera = cam.state || "";
  }

  // Recognition keeps up when one frame takes less than the camera's frame interval, or
  // when it finishes about as many frames a second as the camera sends.
  function fallingBehind(cam, rec) {
    const fps = Number(cam.nominal_fps || cam.fps || 0);
    const ms = Number(rec.ms_per_frame || 0);
    if (cam.state !== "ok" || !rec.available || !fps || !ms) return null;
    const interval = 1000 / fps;
    const done = Number(rec.frames_per_s || 0);
    if (ms <= interval * 1.2 || (done && done >= fps * 0.9)) return null;
    return { ms: Math.round(ms), interval: Math.round(interval) };
  }

  // The rule set in force: its preset, and the toggles set otherwise.
  function toggleValue(v) {
    if (v === null || v === undefined) return t("none");
    if (typeof v === "boolean") return t(v ? "yes" : "no");
    return Array.isArray(v) ? v.join(",") : String(v);
  }

  function rulesText(spec) {
    const changed = Object.entries((spec && spec.set) || {});
    const list = changed.map(([k, v]) => k + " = " + toggleValue(v)).join(", ");
    return t("rules_label", { preset: (spec && spec.preset) || "?" }) + " · "
      + (changed.length ? t("rules_changed_list", { list }) : t("rules_as_preset"));
  }

  function renderRules(spec) {
    const box = $("#rules-info");
    box.textContent = rulesText(spec);
    box.dataset.preset = (spec && spec.preset) || "";
    box.dataset.toggles = Object.keys((spec && spec.set) || {}).join(" ");
  }

  function openRules() {
    const spec = (ui.snapshot && ui.snapshot.rule_set) || { preset: "official", set: {} };
    $("#rules-preset").value = spec.preset;
    $("#rules-set").value = Object.entries(spec.set || {})
      .map(([k, v]) => k + "=" + (v === null ? "none" : Array.isArray(v) ? v.join(",") : String(v)))
      .join("\n");
    $("#rules-in-round").hidden = !((ui.snapshot || {}).game || {}).in_round;
    $("#dlg-rules").showModal();
  }

  async function saveRules() {
    const set = {};
    for (const line of $("#rules-set").value.split(/[\n;]+/)) {
      const text = line.trim();
      if (!text) continue;
      const at = text.indexOf("=");
      if (at < 0) set[text] = "";
      else set[text.slice(0, at).trim()] = text.slice(at + 1).trim();
    }
    const { res, data } = await post("/api/rules", { rules: { preset: $("#rules-preset").value, set } });
    if (res.ok) toast(t("rules_saved", { rules: rulesText(data.verdict.rule_set) }));
  }

  function renderLog() {
    const ol = $("#log");
    ol.replaceChildren();
    ui.log.slice(-12).reverse().forEach((item) => {
      const v = item.verdict || {};
      const e = item.event || {};
      const li = el("li", { class: v.ok ? "" : "bad" }, describe(item.n, e, item.source));
      (v.alerts || []).forEach((a) => li.append(el("div", { class: "alert-line" }, alertText(a))));
      ol.append(li);
    });
  }

  // An ask-referee alert (tracker.heal) offers its options as one-tap answers, for the
  // referee, while its question is still the open one (snapshot.question).
  function askButtons(a) {
    const p = (ui.snapshot || {}).question;  // as it is now: option 0 is the one recorded
    if (a.code !== "ask-referee" || !ui.token || !p || (a.params || {}).question !== p.question) {
      return null;
    }
    const answer = (body) => async () => {
      const { res } = await post("/api/resolve", { question: p.question, ...body });
      if (res.ok) $("#alert").hidden = true;
    };
    const label = (o) => (o[ui.lang] || o.en || "");
    const row = el("div", { class: "ask-options", "data-question": String(p.question) });
    row.append(el("button", { class: "small", "data-option": "0", onclick: answer({ option: 0 }) },
      t(p.refused ? "ask_refused" : "ask_yes")));
    (p.options || []).slice(1).forEach((o) => row.append(el("button", {
      class: "small", "data-option": String(o.index), onclick: answer({ option: o.index }),
    }, t("ask_other", { s: window.WORDS.sentence({ messages: { en: o.en, zh: o.zh } }, ui.lang) }))));
    if (!p.refused) {
      row.append(el("button", { class: "small", "data-option": "card", onclick: () =>
        pickCard(t("pick_correct"), (card, color) =>
          answer(color ? { option: 0, card, color } : { option: 0, card })()) }, t("ask_card")));
    }
    return row;
  }

  function showAlert(alerts, quiet) {
    ui.alerts = alerts;
    const box = $("#alert");
    $("#alert-text").replaceChildren(...alerts.map((a) =>
      el("div", { "data-code": a.code }, alertText(a), askButtons(a))));
    box.dataset.codes = alerts.map((a) => a.code).join(" ");
    box.hidden = false;
    box.classList.remove("flash");
    void box.offsetWidth; // restart the flash animation
    box.classList.add("flash");
    if (!quiet) beep();
  }

  const toast = page.toast;

  // -- live connection ------------------------------------------------------------

  function connect() {
    const es = new EventSource("/api/stream");
    es.addEventListener("open", () => { $("#conn").className = "dot on"; });
    es.addEventListener("error", () => { $("#conn").className = "dot off"; });
    es.addEventListener("snapshot", (ev) => {
      const snap = JSON.parse(ev.data);
      render(snap);
      refreshLog();
      document.dispatchEvent(new CustomEvent("uno:changed"));
    });
    es.addEventListener("health", (ev) => renderHealth(JSON.parse(ev.data)));
    es.addEventListener("verdict", (ev) => {
      const msg = JSON.parse(ev.data);
      ui.log.push(msg);
      ui.log = ui.log.slice(-50);
      render(msg.snapshot);
      renderLog();
      // A camera event the tracker could not make sense of is logged, not sounded:
      // the banner is for what players did wrong.
      const endOfRound = msg.event && msg.event.type === "end-round" && msg.verdict && msg.verdict.ok;
      if (endOfRound) showSummary(msg.verdict, msg.snapshot);
      const alerts = endOfRound ? [] : ((msg.verdict && msg.verdict.alerts) || []).filter(
        (a) => !(msg.source === "vision" && a.code === "bad-event"));
      if (alerts.length) showAlert(alerts);
      // Inferred events were stored before this one: read the log again.
      if ((msg.steps || []).length > 1) refreshLog();
      document.dispatchEvent(new CustomEvent("uno:changed"));
    });
  }

  async function refreshLog() {
    try {
      const res = await fetch("/api/events?limit=50");
      const body = await res.json();
      ui.log = body.events.slice(-50);
      renderLog();
    } catch (err) { /* the stream keeps the page live anyway */ }
  }

  // -- sending --------------------------------------------------------------------

  // Each write carries an id of its own: a retry after a lost answer (the network
  // dropped, the server restarted) is answered from the store, never applied twice.
  function clientId() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);  // works on plain http too (randomUUID does not)
    return "tab-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function post(path, body, { idempotent = true } = {}) {
    const payload = idempotent ? { ...body, client_id: clientId() } : body;
    const request = () => fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Referee-Token": ui.token },
      body: JSON.stringify(payload),
    });
    let res;
    try {
      res = await request();
    } catch (err) {
      await new Promise((ok) => setTimeout(ok, 1000));
      try {
        res = await request();  // the same client_id: at most once, whatever happened
      } catch (again) {
        toast(t("offline"), true);
        return { res: { ok: false, status: 0 }, data: {} };
      }
    }
    let data = {};
    try { data = await res.json(); } catch (err) { data = {}; }
    if (res.status === 401) {
      toast(t("unauthorized"), true);
      $("#dlg-token").showModal();
    } else if (!res.ok) {
      toast(data.error || res.statusText, true);
    }
    return { res, data };
  }

  function send(event) { return post("/api/events", event); }

  // -- dialogs --------------------------------------------------------------------

  let pickHandler = null;
  let pickNeedsColor = true;
  function pickCard(title, onPick, needsColor) {
    pickNeedsColor = needsColor !== false;
    const grid = $("#card-grid");
    grid.replaceChildren();
    $("#card-title").textContent = title;
    $("#card-color-row").hidden = true;
    for (const c of COLORS) {
      for (const v of VALUES) {
        const card = c + "-" + v;
        // A symbol fits the narrow button ("Reverse" was cut to "Revers"); the name
        // in words is its tooltip and what a screen reader says.
        grid.append(el("button", { type: "button", class: "pick " + c, "data-card": card,
          title: cardLabel(card), "aria-label": cardLabel(card),
          onclick: () => chosen(card) }, (window.CARD_SYMBOLS[v] || v)));
      }
    }
    for (const card of ["wild", "wild-draw4"]) {
      grid.append(el("button", { type: "button", class: "pick black wide", "data-card": card,
        onclick: () => chosen(card) }, cardLabel(card)));
    }
    pickHandler = onPick;
    $("#dlg-card").showModal();
  }

  function chosen(card) {
    if (pickNeedsColor && (card === "wild" || card === "wild-draw4")) {
      $("#card-color-row").hidden = false;
      $("#card-color-row").dataset.card = card;
      return;
    }
    $("#dlg-card").close();
    if (pickHandler) pickHandler(card, null);
  }

  function openCatch(player) {
    $("#catch-title").textContent = t("caught_by", { p: player });
    const row = $("#catch-by");
    row.replaceChildren(...players(ui.snapshot).filter((p) => p !== player).map((p) =>
      el("button", { type: "button", class: "go", onclick: () => {
        $("#dlg-catch").close();
        send({ type: "catch", player, by: p });
      } }, p)));
    $("#dlg-catch").showModal();
  }

  // An event in words, without its number or source: "Play Red 7 · Bob".
  function eventWords(e) {
    const evNames = (window.I18N[ui.lang] || {}).ev || {};
    return (evNames[e.type] || e.type) + (e.card ? " " + cardLabel(e.card) : "")
      + (e.cards ? " " + e.cards.map(cardLabel).join(", ") : "")
      + (e.color ? " (" + t(e.color) + ")" : "") + (e.player ? " · " + e.player : "")
      + (e.count && e.count > 1 ? " ×" + e.count : "");
  }

  // Who said so: the camera, the referee, the system (a demo's deal), an event the
  // tracker inferred from what the camera saw, or one an amendment judged again.
  function sourceWords(source) {
    const whoKey = { vision: "by_camera", referee: "by_referee", system: "by_system",
      inferred: "by_inferred", amend: "by_amend" };
    return whoKey[source] ? t(whoKey[source]) : source;
  }

  // A sentence for a logged event: "#17 Play Red 7 · Bob (camera)".
  function describe(n, e, source) {
    const evNames = (window.I18N[ui.lang] || {}).ev || {};
    if (e.type === "rules") {
      return "#" + n + " " + (evNames.rules || "rules") + " · " + rulesText(e)
        + (source ? " — " + t("by_" + (source === "referee" ? "referee" : "system")) : "");
    }
    if (e.type === "amend") {  // the referee amended a past event (timeline.js)
      return "#" + n + " " + t("amend_log_" + e.action, { n: e.n, what: e.event ? eventWords(e.event) : "" })
        + (source ? " — " + sourceWords(source) : "");
    }
    return "#" + n + " " + eventWords(e) + (source ? " — " + sourceWords(source) : "");
  }

  function openUndo() {
    const target = ui.snapshot && ui.snapshot.undo;
    $("#undo-what").textContent = target
      ? t("undo_what", { what: describe(target.n, target.event, target.source) })
      : t("undo_nothing");
    $("#undo-go").hidden = !target;
    $("#dlg-undo").showModal();
  }

  // The round's result, calmly: who won, points per seat, totals, the standing; a note
  // only where the hand shown and the record truly differ.
  function showSummary(verdict, snap) {
    const r = verdict.round || {};
    const g = (snap && snap.game) || {};
    const ps = players(snap);
    const totals = verdict.totals || g.totals || {};
    const number = (g.round_scores || []).length || g.round || "";
    $("#summary-title").textContent = verdict.match_winner
      ? t("match_winner", { p: verdict.match_winner })
      : r.winner ? t("round_won", { p: r.winner, n: number }) : t("round_over", { n: number });
    const table = $("#summary-table");
    table.replaceChildren(el("tr", {}, el("th", {}, ""), el("th", {}, t("hand_value")),
      el("th", {}, t("points")), el("th", {}, t("total"))));
    ps.forEach((p) => {
      const hand = (r.hand_points || {})[p];
      table.append(el("tr", { class: p === r.winner ? "won" : "", "data-player": p }, el("td", {}, p),
        el("td", {}, hand === undefined ? "–" : String(hand)),
        el("td", {}, String((r.points || {})[p] || 0)), el("td", {}, String(totals[p] || 0))));
    });
    const ranked = ps.slice().sort((a, b) => Number(totals[b] || 0) - Number(totals[a] || 0));
    $("#summary-standing").textContent = t("standing") + ": "
      + ranked.map((p, i) => (i + 1) + ". " + p + " " + (totals[p] || 0)).join(" · ");
    $("#summary-notes").replaceChildren(...(verdict.alerts || []).map((a) => el("div", {}, alertText(a))));
    const dlg = $("#dlg-summary");
    if (!dlg.open) dlg.showModal();
  }

  function openStartRound() {
    const ps = players(ui.snapshot);
    $("#round-players").value = ps.join(", ");
    const g = ui.snapshot.game || {};
    const sel = $("#round-dealer");
    // Between rounds the state already names the next dealer; during a round it names
    // this round's, and the next one is the player after.
    const at = ps.indexOf(g.dealer);
    const next = at < 0 ? ps[0] : g.in_round ? ps[(at + 1) % ps.length] : ps[at];
    sel.replaceChildren(...ps.map((p) => el("option", p === next ? { value: p, selected: "" } : { value: p }, p)));
    $("#dlg-round").showModal();
  }

  // Card points shown while scoring; the tracker's verdict has the final word.
  function cardPoints(card) {
    const rules = (ui.snapshot && ui.snapshot.match.rules) || "official";
    const v = card.startsWith("wild") ? "wild" : card.slice(card.indexOf("-") + 1);
    if (rules === "youlerren") return v === "wild" ? 5 : /^\d$/.test(v) ? 1 : 2;
    return v === "wild" ? 50 : /^\d$/.test(v) ? Number(v) : 20;
  }

  function parseHand(text) {
    return text.split(/[\s,]+/).map((s) => s.trim().toLowerCase()).filter(Boolean);
  }

  function endHands() {
    const hands = {};
    document.querySelectorAll("#end-table input[data-player]").forEach((inp) => {
      hands[inp.dataset.player] = parseHand(inp.value);
    });
    return hands;
  }

  async function openEndRound() {
    const dlg = $("#dlg-end");
    if (!dlg.open) dlg.showModal();
    let hands = {};
    try {
      const res = await fetch("/api/seat-cards");
      hands = (await res.json()).hands || {};
    } catch (err) { hands = {}; }
    const table = $("#end-table");
    table.replaceChildren(el("tr", {}, el("th", {}, ""), el("th", {}, t("cards")),
      el("th", {}, t("hand_value")), el("th", {}, t("points"))));
    players(ui.snapshot).forEach((p) => {
      const input = el("input", { "data-player": p, size: "28", value: (hands[p] || []).join(" ") });
      input.addEventListener("input", previewEnd);
      const add = el("button", { type: "button", class: "small", title: t("add_card"), "data-add": p,
        onclick: () => pickCard(p + ": " + t("add_card"), (card) => {
          input.value = (input.value.trim() + " " + card).trim();
          previewEnd();
        }, false) }, "+");
      table.append(el("tr", {}, el("th", {}, p), el("td", { class: "hand-cell" }, input, add),
        el("td", { class: "hand-value", "data-player": p }, ""),
        el("td", { class: "round-points", "data-player": p }, "")));
    });
    previewEnd();
  }

  let previewSeq = 0;
  async function previewEnd() {
    const hands = endHands();
    for (const [p, cards] of Object.entries(hands)) {
      const cell = document.querySelector('#end-table .hand-value[data-player="' + CSS.escape(p) + '"]');
      const known = cards.every((c) => /^(red|yellow|green|blue)-([0-9]|skip|reverse|draw2)$|^wild(-draw4)?$/.test(c));
      cell.textContent = known ? String(cards.reduce((s, c) => s + cardPoints(c), 0)) : "?";
    }
    const seq = ++previewSeq;
    const { res, data: body } = await post(
      "/api/round-preview", { type: "end-round", hands }, { idempotent: false });
    if (seq !== previewSeq) return;
    // A round is won by going out (an empty hand); only rules that end a round when
    // the draw pile runs out (youlerren) have a winner who still holds cards.
    const named = res.ok && body.ok && body.round ? body.round.winner : null;
    const rules = (ui.snapshot && ui.snapshot.match.rules) || "official";
    const winner = named && ((hands[named] || []).length === 0 || rules === "youlerren") ? named : null;
    $("#end-headline").textContent = winner ? t("round_won_preview", { p: winner }) : t("no_winner");
    $("#end-go").disabled = !winner;
    $("#end-preview").replaceChildren(...(res.ok ? (body.alerts || []).map((a) => el("div", {}, alertText(a)))
      : [el("div", {}, body.error || "")]));
    const pts = (body.round && body.round.points) || {};
    const handPts = (body.round && body.round.hand_points) || {};
    document.querySelectorAll("#end-table .hand-value").forEach((cell) => {
      const v = handPts[cell.dataset.player];
      if (v !== undefined) cell.textContent = String(v);
    });
    document.querySelectorAll("#end-table .round-points").forEach((cell) => {
      const v = pts[cell.dataset.player];
      cell.textContent = v === undefined ? "" : String(v);
    });
  }

  // -- wiring ---------------------------------------------------------------------

  function setReferee(token) {
    ui.token = token;
    page.keepToken(token);
    document.querySelectorAll(".referee-only").forEach((n) => { n.hidden = !token; });
    document.body.classList.toggle("referee", !!token);
    applyLanguage();
  }

  function wire() {
    document.addEventListener("pointerdown", unlockAudio);
    document.addEventListener("keydown", unlockAudio);
    page.wireBar(ui, applyLanguage, setReferee);
    $("#btn-sound").addEventListener("click", () => {
      ui.sound = !ui.sound;
      localStorage.setItem("uno.sound", ui.sound ? "on" : "off");
      $("#btn-sound").setAttribute("aria-pressed", String(ui.sound));
      applyLanguage();
    });
    $("#alert-close").addEventListener("click", () => { $("#alert").hidden = true; });

    document.querySelectorAll(".controls-panel [data-color]").forEach((b) =>
      b.addEventListener("click", () => send({ type: "color", color: b.dataset.color })));
    document.querySelectorAll("[data-pick-color]").forEach((b) =>
      b.addEventListener("click", () => {
        const card = $("#card-color-row").dataset.card;
        $("#dlg-card").close();
        if (pickHandler) pickHandler(card, b.dataset.pickColor);
      }));
    $("#btn-draw").addEventListener("click", () => {
      const pending = Number((ui.snapshot.game || {}).pending_draw || 0);
      send(pending ? { type: "draw", count: pending } : { type: "draw" });
    });
    $("#btn-pass").addEventListener("click", () => send({ type: "pass" }));
    $("#btn-guilty").addEventListener("click", () => send({ type: "challenge", guilty: true }));
    $("#btn-innocent").addEventListener("click", () => send({ type: "challenge", guilty: false }));
    $("#btn-undo").addEventListener("click", openUndo);
    $("#dlg-undo").addEventListener("close", () => {
      if ($("#dlg-undo").returnValue === "ok") send({ type: "undo" });
    });
    $("#btn-share").addEventListener("click", () => $("#dlg-share").showModal());
    $("#btn-play").addEventListener("click", () => pickCard(t("pick_play"), (card, color) =>
      send(color ? { type: "play", card, color } : { type: "play", card })));
    $("#btn-flip").addEventListener("click", () => pickCard(t("pick_flip"), (card, color) =>
      send(color ? { type: "flip", card, color } : { type: "flip", card })));
    $("#btn-correct").addEventListener("click", () => pickCard(t("pick_correct"), (card, color) =>
      post("/api/correct", color ? { card, color } : { card })));
    $("#btn-start-round").addEventListener("click", openStartRound);
    $("#round-players").addEventListener("input", () => {
      const ps = $("#round-players").value.split(",").map((s) => s.trim()).filter(Boolean);
      $("#round-dealer").replaceChildren(...ps.map((p) => el("option", { value: p }, p)));
    });
    $("#dlg-round").addEventListener("close", () => {
      if ($("#dlg-round").returnValue !== "ok") return;
      const ps = $("#round-players").value.split(",").map((s) => s.trim()).filter(Boolean);
      send({ type: "round", players: ps, dealer: $("#round-dealer").value,
        hand_size: Number($("#round-hand").value) || 7 });
    });
    $("#btn-end-round").addEventListener("click", openEndRound);
    $("#btn-rules").addEventListener("click", openRules);
    $("#dlg-rules").addEventListener("close", () => {
      if ($("#dlg-rules").returnValue === "ok") saveRules();
    });
    $("#end-rescan").addEventListener("click", openEndRound);
    $("#dlg-end").addEventListener("close", () => {
      if ($("#dlg-end").returnValue === "ok") send({ type: "end-round", hands: endHands() });
    });
    $("#btn-new-match").addEventListener("click", () => {
      if (window.confirm(t("new_match_confirm"))) {
        post("/api/matches", { players: players(ui.snapshot), rules: ui.snapshot.rule_set || ui.snapshot.match.rules });
      }
    });
    $("#video").addEventListener("error", () => {
      // The MJPEG stream broke (server restarted): try again shortly.
      setTimeout(() => { $("#video").src = "/video.mjpg?" + Date.now(); }, 2000);
    });
  }

  // What timeline.js (the round's events, amending one) uses of this page.
  window.UNO = {
    ui, t, el, post, toast, showAlert, pickCard, describe, eventWords, alertText, players, cardLabel,
  };

  function start() {
    wire();
    setReferee(ui.token);
    fetch("/api/state").then((r) => r.json()).then((snap) => { if (!ui.snapshot) render(snap); });
    fetch("/healthz").then((r) => r.json()).then(renderHealth);
    connect();
  }

  start();
})();
