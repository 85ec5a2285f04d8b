// The camera check: the live picture with the table's layout drawn over it (an SVG in
// the frame's own pixels, stretched over the picture). The discard and draw piles
// move by dragging (their corner handle resizes them); each seat is a handle on a
// ray from the discard pile's centre, dragged round the table. Save posts the layout
// (POST /api/layout, the referee's token) in the JSON `calibrate-table` writes.
"use strict";

(function () {
  const $ = (sel) => document.querySelector(sel);
  const SVG = "http://www.w3.org/2000/svg";
  const SEAT_COLORS = ["#e84a4a", "#f0c419", "#3cb371", "#3b82f6", "#c084fc", "#fb923c", "#22d3ee", "#f472b6", "#a3e635", "#94a3b8"];
  // How far out a seat's handle sits, as a fraction of the way to the frame's edge.
  const SEAT_REACH = 0.78;
  // The smallest pile, in the frame's pixels.
  const MIN_ZONE = 12;

  const page = window.UnoPage;
  const ui = {
    lang: page.initialLang(),
    token: page.takeToken(),
    layout: null,
    players: [],
    drag: null,
  };

  function t(key, vars) { return page.translate(ui.lang, key, vars); }

  function applyLanguage() {
    page.showLanguage(ui.lang);
    if (ui.layout) draw();
  }

  const toast = page.toast;

  function node(tag, attrs, text) {
    const n = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, v);
    if (text !== undefined) n.textContent = text;
    return n;
  }

  // -- geometry (the frame's pixels) ------------------------------------------------

  function centre() {
    const d = ui.layout.discard;
    return [(d[0] + d[2]) / 2, (d[1] + d[3]) / 2];
  }

  // A point towards a seat's bearing (degrees clockwise from up), SEAT_REACH of the way
  // from the discard pile's centre to the frame's edge.
  function seatPoint(bearing) {
    const { width, height } = ui.layout;
    const [cx, cy] = centre();
    const r = bearing * Math.PI / 180;
    const dx = Math.sin(r), dy = -Math.cos(r);
    const ts = [];
    if (dx > 1e-9) ts.push((width - cx) / dx);
    if (dx < -1e-9) ts.push(-cx / dx);
    if (dy > 1e-9) ts.push((height - cy) / dy);
    if (dy < -1e-9) ts.push(-cy / dy);
    const reach = Math.min(...ts) * SEAT_REACH;
    return [cx + dx * reach, cy + dy * reach];
  }

  function bearingOf(x, y) {
    const [cx, cy] = centre();
    const b = Math.atan2(x - cx, -(y - cy)) * 180 / Math.PI;
    return Math.round(((b % 360) + 360) % 360 * 100) / 100;
  }

  // The pointer's position in the frame's pixels.
  function framePoint(ev) {
    const svg = $("#cam-overlay");
    const p = svg.createSVGPoint();
    p.x = ev.clientX;
    p.y = ev.clientY;
    const q = p.matrixTransform(svg.getScreenCTM().inverse());
    return [q.x, q.y];
  }

  // -- drawing ----------------------------------------------------------------------

  function draw() {
    const L = ui.layout;
    const svg = $("#cam-overlay");
    svg.setAttribute("viewBox", `0 0 ${L.width} ${L.height}`);
    svg.dataset.layout = JSON.stringify(L);  // what Save would send
    svg.replaceChildren();
    const [cx, cy] = centre();
    const stroke = Math.max(L.width, L.height) / 300;
    L.seats.forEach((b, i) => {
      const [x, y] = seatPoint(b);
      const color = SEAT_COLORS[i % SEAT_COLORS.length];
      svg.append(node("line", { x1: cx, y1: cy, x2: x, y2: y, stroke: color, "stroke-width": stroke,
        "stroke-dasharray": `${stroke * 4} ${stroke * 3}` }));
      const g = node("g", { class: "seat-handle", "data-seat": String(i), "data-player": ui.players[i] || "" });
      g.append(node("circle", { cx: x, cy: y, r: L.card_px * 0.32, fill: color, "fill-opacity": 0.85,
        stroke: "#fff", "stroke-width": stroke }));
      const below = y + L.card_px * 0.62 <= L.height;  // the name under the handle, if it fits
      g.append(node("text", { x, y: below ? y + L.card_px * 0.62 : y - L.card_px * 0.42, "text-anchor": "middle", class: "cam-label",
        "font-size": L.card_px * 0.3 }, ui.players[i] || "#" + (i + 1)));
      g.addEventListener("pointerdown", (ev) => startDrag(ev, { kind: "seat", seat: i }));
      svg.append(g);
    });
    for (const name of ["discard", "draw"]) {
      const [x1, y1, x2, y2] = L[name];
      const g = node("g", { class: "zone " + name, id: "zone-" + name });
      const rect = node("rect", { x: x1, y: y1, width: x2 - x1, height: y2 - y1,
        "stroke-width": stroke * 1.5, class: "zone-rect" });
      rect.addEventListener("pointerdown", (ev) => startDrag(ev, { kind: "move", zone: name }));
      const size = Math.max(L.card_px * 0.22, 8);
      const corner = node("rect", { x: x2 - size, y: y2 - size, width: size, height: size,
        class: "zone-corner", id: "corner-" + name });
      corner.addEventListener("pointerdown", (ev) => startDrag(ev, { kind: "resize", zone: name }));
      g.append(rect, corner, node("text", { x: x1 + stroke * 2, y: y1 - stroke * 2, class: "cam-label",
        "font-size": L.card_px * 0.26 }, t(name === "discard" ? "camera_discard" : "camera_draw")));
      svg.append(g);
    }
    const where = { live: "camera_from_live", file: "camera_from_file", default: "camera_from_default" };
    $("#cam-status").textContent = t(where[ui.source] || "camera_from_default")
      + " " + L.width + "×" + L.height + " · " + t("camera_seats", { list: L.seats.map((b, i) =>
        (ui.players[i] || "#" + (i + 1)) + " " + Math.round(b) + "°").join(", ") })
      + (ui.note ? " " + t(ui.note) : "");
  }

  // -- dragging ---------------------------------------------------------------------

  function startDrag(ev, what) {
    ev.preventDefault();
    ev.stopPropagation();
    const [x, y] = framePoint(ev);
    ui.drag = { ...what, x, y, zone0: what.zone ? [...ui.layout[what.zone]] : null };
    $("#cam-overlay").setPointerCapture(ev.pointerId);
  }

  function onMove(ev) {
    const d = ui.drag;
    if (!d) return;
    const [x, y] = framePoint(ev);
    const L = ui.layout;
    if (d.kind === "seat") {
      L.seats[d.seat] = bearingOf(x, y);
    } else {
      const [x1, y1, x2, y2] = d.zone0;
      const dx = x - d.x, dy = y - d.y;
      if (d.kind === "move") {
        const mx = Math.min(Math.max(dx, -x1), L.width - x2);
        const my = Math.min(Math.max(dy, -y1), L.height - y2);
        L[d.zone] = [x1 + mx, y1 + my, x2 + mx, y2 + my].map((v) => Math.round(v * 10) / 10);
      } else {
        const nx = Math.min(Math.max(x2 + dx, x1 + MIN_ZONE), L.width);
        const ny = Math.min(Math.max(y2 + dy, y1 + MIN_ZONE), L.height);
        L[d.zone] = [x1, y1, Math.round(nx * 10) / 10, Math.round(ny * 10) / 10];
      }
    }
    draw();
  }

  function endDrag() { ui.drag = null; }

  // -- loading and saving -----------------------------------------------------------

  async function load() {
    const img = $("#cam-picture");
    const w = img.naturalWidth || 640, h = img.naturalHeight || 480;
    const res = await fetch(`/api/layout?width=${w}&height=${h}`);
    const body = await res.json();
    ui.layout = body.layout;
    ui.players = body.players;
    ui.source = body.source;
    ui.note = !ui.token ? "camera_need_token" : !body.writable ? "camera_no_file" : null;
    document.body.dataset.source = body.source;
    $("#cam-save").disabled = !ui.token || !body.writable;
    draw();
    document.body.dataset.ready = "1";
  }

  async function save() {
    const res = await fetch("/api/layout", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Referee-Token": ui.token },
      body: JSON.stringify(ui.layout),
    });
    let data = {};
    try { data = await res.json(); } catch (err) { data = {}; }
    if (res.ok) {
      ui.layout = data.layout;
      ui.source = "file";
      document.body.dataset.saved = String(Date.now());
      toast(t(data.applied ? "camera_saved_live" : "camera_saved"));
      draw();
    } else {
      toast(data.error || res.statusText, true);
    }
  }

  // The picture's size is known once its first frame has come (an MJPEG stream may
  // not say "load"): wait a little for it, then draw the layout.
  function whenPictureReady(then) {
    const img = $("#cam-picture");
    const started = Date.now();
    (function poll() {
      if (img.naturalWidth || Date.now() - started > 3000) then();
      else setTimeout(poll, 100);
    })();
  }

  page.wireBar(ui, applyLanguage, () => {});
  const overlay = $("#cam-overlay");
  overlay.addEventListener("pointermove", onMove);
  overlay.addEventListener("pointerup", endDrag);
  overlay.addEventListener("pointercancel", endDrag);
  $("#cam-save").addEventListener("click", save);
  $("#cam-reset").addEventListener("click", () => load());
  applyLanguage();
  whenPictureReady(load);
})();
