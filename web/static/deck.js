// Deck setup: photos of the user's cards, a name for each, calibration, keep or forget.
// State comes from /deck/api/state; every change posts with the referee's token.
"use strict";

(function () {
  const $ = (sel) => document.querySelector(sel);
  const VALUES = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "skip", "reverse", "draw2"];
  const POLL_MS = 400;

  Object.assign(window.I18N.en, {
    deck_title: "Deck setup",
    back_to_table: "← Table",
    deck_help: "Lay your cards out face up on the table, apart from one another. Photograph them (several cards a photo) or take the camera's picture. Each card gets the name the recogniser reads: tap a wrong one to correct it. Photograph some cards a second time, moved: those second photos are held back to measure the calibration. Then calibrate.",
    upload: "Upload photos…",
    use_camera: "Take the camera's picture",
    start_over: "Start over",
    start_over_confirm: "Remove every photo of this setup?",
    remove: "Remove",
    calibrate: "Calibrate",
    use_deck: "Use this deck",
    forget_deck: "Forget deck",
    not_a_card: "Not a card",
    pick_face: "Card {n}: which card is it?",
    counts: "{n} cards named in {p} photos · {h} held back to measure the calibration",
    counts_none: "{n} cards named in {p} photos · photograph some cards a second time to measure the calibration",
    no_photos: "No photo yet.",
    n_cards: "{n} cards",
    held_tag: "held back",
    uploading: "Reading {name}…",
    stage_crops: "cutting out and reading the cards",
    stage_check: "fitting without the held-back cards",
    stage_fit: "fitting on every card",
    result_line: "Held-back cards: {b} of {n} right before, {a} of {n} after.",
    result_none: "Calibrated. Nothing held back to measure it: each face was photographed once. Photograph some cards a second time (moved) to see how much it improved.",
    result_detail: "Calibrated on {t} cards ({f} faces) in {s} s. The deck you use is fitted on all {all} cards.",
    result_card: "{face}: {before} → {after}",
    failed: "Calibration failed: {m}",
    deck_in_use: "In use: your deck ({path}).",
    deck_general: "In use: the classifier as shipped (no deck file).",
    deck_saved: "Deck saved and in use.",
    deck_forgotten: "Deck forgotten: back to the classifier as shipped.",
    unavailable: "Deck setup is not available: {m}",
  });
  Object.assign(window.I18N.zh, {
    deck_title: "牌组设置",
    back_to_table: "← 牌桌",
    deck_help: "把你的牌正面朝上摊在桌上，彼此分开。给它们拍照（一张照片可以有多张牌），或者用摄像头拍一张。识别器会给每张牌一个名字：点一下错的牌就能更正。把部分牌挪动后再拍一次：这些照片会被留出来衡量校准效果。然后开始校准。",
    upload: "上传照片…",
    use_camera: "用摄像头拍一张",
    start_over: "重新开始",
    start_over_confirm: "删除这次设置的所有照片？",
    remove: "删除",
    calibrate: "校准",
    use_deck: "使用这副牌",
    forget_deck: "忘记这副牌",
    not_a_card: "不是牌",
    pick_face: "第 {n} 张：这是哪张牌？",
    counts: "{p} 张照片中已命名 {n} 张牌 · 留出 {h} 张用来衡量校准效果",
    counts_none: "{p} 张照片中已命名 {n} 张牌 · 把部分牌再拍一次，才能衡量校准效果",
    no_photos: "还没有照片。",
    n_cards: "{n} 张牌",
    held_tag: "留出",
    uploading: "正在读取 {name}…",
    stage_crops: "裁剪并读取每张牌",
    stage_check: "不用留出的牌进行拟合",
    stage_fit: "用全部牌进行拟合",
    result_line: "留出的牌：校准前认对 {n} 张中的 {b} 张，校准后认对 {a} 张。",
    result_none: "校准完成。没有留出的牌可以衡量：每种牌面只拍了一次。把部分牌挪动后再拍一次，就能看到提升了多少。",
    result_detail: "用 {t} 张牌（{f} 种牌面）校准，用时 {s} 秒。实际使用的牌组用全部 {all} 张牌拟合。",
    result_card: "{face}：{before} → {after}",
    failed: "校准失败：{m}",
    deck_in_use: "正在使用：你的牌组（{path}）。",
    deck_general: "正在使用：出厂识别模型（没有牌组文件）。",
    deck_saved: "牌组已保存并开始使用。",
    deck_forgotten: "已忘记牌组：恢复出厂识别模型。",
    unavailable: "牌组设置不可用：{m}",
  });

  const page = window.UnoPage;
  const { COLORS, el, cardColor } = page;
  const ui = {
    lang: page.initialLang(),
    token: page.takeToken(),
    state: null,
    polling: false,
    picking: null, // {photo, card}
  };

  function t(key, vars) { return page.translate(ui.lang, key, vars); }

  function cardLabel(card) {
    if (!card) return t("not_a_card");
    const words = window.CARD_WORDS[ui.lang];
    if (words[card]) return words[card];
    const dash = card.indexOf("-");
    return t(card.slice(0, dash)) + " " + (words[card.slice(dash + 1)] || card.slice(dash + 1));
  }

  function svg(tag, attrs, text) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  const TOAST_MS = 5000; // the deck's messages are longer
  function toast(text, bad) { page.toast(text, bad, TOAST_MS); }

  // -- talking to the server ----------------------------------------------------------

  async function call(method, path, body) {
    const headers = { "X-Referee-Token": ui.token };
    let payload = body;
    if (body !== undefined && !(body instanceof FormData)) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const res = await fetch(path, { method, headers, body: payload });
    let data = {};
    try { data = await res.json(); } catch (err) { data = {}; }
    if (res.status === 401) {
      toast(t("unauthorized"), true);
      $("#dlg-token").showModal();
    } else if (!res.ok) {
      toast(data.error || res.statusText, true);
    }
    if (res.ok && data.photos) render(data);
    return { res, data };
  }

  async function refresh() {
    const res = await fetch("/deck/api/state");
    render(await res.json());
  }

  // -- rendering ----------------------------------------------------------------------

  function render(state) {
    ui.state = state;
    const unavailable = $("#deck-unavailable");
    unavailable.hidden = state.available;
    unavailable.textContent = state.available ? "" : t("unavailable", { m: "no recogniser" });
    const photos = $("#photos");
    photos.replaceChildren(...state.photos.map(renderPhoto));
    $("#deck-counts").textContent = !state.photos.length ? t("no_photos")
      : t(state.held_back || !state.labelled ? "counts" : "counts_none",
        { n: state.labelled, p: state.photos.length, h: state.held_back });
    renderJob(state.job, state.result);
    $("#btn-use").disabled = !state.can_use;
    const deck = state.deck || {};
    // Without a camera (--source none) the photos come from uploads only.
    if (!deck.camera) $("#btn-camera").disabled = true;
    $("#deck-status").textContent = deck.in_use ? t("deck_in_use", { path: deck.deck_file }) : t("deck_general");
    document.body.dataset.deckInUse = String(!!deck.in_use);
    document.body.dataset.labelled = String(state.labelled);
  }

  function renderPhoto(photo) {
    const w = photo.width, h = photo.height;
    const size = Math.max(w, h);
    const font = Math.max(12, Math.round(size / 32));
    const overlay = svg("svg", { viewBox: "0 0 " + w + " " + h, preserveAspectRatio: "none" });
    const chips = el("div", { class: "chips" });
    photo.cards.forEach((card, i) => {
      const cls = ["card-box"];
      if (card.label === null) cls.push("dropped");
      else if (card.corrected) cls.push("corrected");
      if (card.held_back) cls.push("held");
      const points = card.quad.map((p) => p[0] + "," + p[1]).join(" ");
      const open = () => openPicker(photo.id, card.id, i + 1);
      const poly = svg("polygon", { points, class: cls.join(" "), "stroke-width": Math.max(2, size / 300),
        "data-photo": photo.id, "data-card": card.id });
      poly.addEventListener("click", open);
      overlay.append(poly);
      const x = card.box[0], y = Math.max(card.box[1], font * 1.3);
      const text = String(i + 1) + " " + (card.label ? card.label : "×");
      overlay.append(svg("rect", { x, y: y - font * 1.2, width: font * 0.62 * text.length + font * 0.5,
        height: font * 1.45, rx: font * 0.3, class: "card-tag" }));
      overlay.append(svg("text", { x: x + font * 0.25, y: y, "font-size": font, class: "card-tag-text" }, text));
      const chip = el("button", { type: "button", class: "chip " + cardColor(card.label) + (card.corrected ? " corrected" : ""),
        "data-photo": photo.id, "data-card": card.id, "data-label": card.label || "", onclick: open },
        (i + 1) + " · " + cardLabel(card.label),
        card.held_back ? el("span", { class: "held-tag" }, "(" + t("held_tag") + ")") : null);
      chips.append(chip);
    });
    return el("figure", { class: "deck-photo", "data-photo": photo.id },
      el("div", { class: "photo-frame" },
        el("img", { src: "/deck/photos/" + photo.id + ".jpg", alt: photo.name }), overlay),
      el("div", { class: "photo-head" },
        el("span", { class: "name" }, photo.name),
        el("span", { class: "muted" }, t("n_cards", { n: photo.cards.length })),
        el("button", { type: "button", class: "small", "data-remove": photo.id,
          onclick: () => call("DELETE", "/deck/api/photos/" + photo.id) }, t("remove"))),
      chips);
  }

  function renderJob(job, result) {
    const box = $("#progress-box");
    const running = job.state === "running";
    box.hidden = job.state === "idle";
    $("#progress").value = job.fraction || 0;
    $("#progress-text").textContent = running
      ? t("stage_" + job.stage) + " " + job.done + "/" + job.total
      : job.state === "done" ? "100%" : "";
    document.body.dataset.job = job.state;
    $("#btn-calibrate").disabled = running;
    ["#btn-upload", "#btn-camera", "#btn-clear"].forEach((s) => { $(s).disabled = running; });
    const out = $("#result");
    const list = $("#result-cards");
    list.replaceChildren();
    if (job.state === "failed") {
      out.hidden = false;
      out.className = "deck-result bad";
      out.textContent = t("failed", { m: job.error });
    } else if (result) {
      out.hidden = false;
      out.className = "deck-result" + (result.after < result.before ? " bad" : "");
      out.textContent = result.held_back
        ? t("result_line", { b: result.before, a: result.after, n: result.held_back })
        : t("result_none");
      list.append(el("li", { class: "muted" }, t("result_detail", { t: result.trained, f: result.faces,
        s: result.seconds, all: result.trained + result.held_back })));
      result.cards.forEach((c) => list.append(el("li", { class: c.after === c.face ? "right" : "wrong" },
        t("result_card", { face: cardLabel(c.face), before: cardLabel(c.before), after: cardLabel(c.after) }))));
    } else {
      out.hidden = true;
    }
    if (running && !ui.polling) poll();
  }

  async function poll() {
    ui.polling = true;
    try {
      while (true) {
        await new Promise((r) => setTimeout(r, POLL_MS));
        const res = await fetch("/deck/api/job");
        const body = await res.json();
        if (body.job.state !== "running") break;
        renderJob(body.job, body.result);
      }
    } finally {
      ui.polling = false;
    }
    refresh();
  }

  // -- the face picker ----------------------------------------------------------------

  function openPicker(photo, card, n) {
    ui.picking = { photo, card };
    $("#face-title").textContent = t("pick_face", { n });
    const grid = $("#face-grid");
    grid.replaceChildren();
    for (const c of COLORS) {
      for (const v of VALUES) {
        const face = c + "-" + v;
        grid.append(el("button", { type: "button", class: "pick " + c, "data-face": face,
          onclick: () => picked(face) }, window.CARD_WORDS[ui.lang][v] || v));
      }
    }
    for (const face of ["wild", "wild-draw4"]) {
      grid.append(el("button", { type: "button", class: "pick black", "data-face": face,
        onclick: () => picked(face) }, cardLabel(face)));
    }
    $("#dlg-face").showModal();
  }

  function picked(face) {
    $("#dlg-face").close();
    const p = ui.picking;
    ui.picking = null;
    if (p) call("POST", "/deck/api/label", { photo: p.photo, card: p.card, face });
  }

  // -- actions ------------------------------------------------------------------------

  async function upload(files) {
    const errors = [];
    for (const file of files) {
      toast(t("uploading", { name: file.name }));
      const form = new FormData();
      form.append("photo", file, file.name);
      const { res, data } = await call("POST", "/deck/api/photos", form);
      if (res.status === 401) return;
      if (!res.ok) errors.push(data.error || res.statusText);
    }
    const box = $("#upload-errors");
    box.replaceChildren(...errors.map((e) => el("div", {}, e)));
    box.hidden = errors.length === 0;
    if (!errors.length) $("#toast").hidden = true;
  }

  function applyLanguage() {
    page.showLanguage(ui.lang);
    $("#btn-referee").textContent = t(ui.token ? "referee_on" : "referee");
    if (ui.state) render(ui.state);
  }

  function setReferee(token) {
    ui.token = token;
    page.keepToken(token);
    applyLanguage();
  }

  function wire() {
    page.wireBar(ui, applyLanguage, setReferee);
    $("#btn-upload").addEventListener("click", () => $("#file-input").click());
    $("#file-input").addEventListener("change", async () => {
      const files = Array.from($("#file-input").files || []);
      $("#file-input").value = "";
      if (files.length) await upload(files);
    });
    $("#btn-camera").addEventListener("click", () => call("POST", "/deck/api/camera"));
    $("#btn-clear").addEventListener("click", () => {
      if (window.confirm(t("start_over_confirm"))) call("DELETE", "/deck/api/photos");
    });
    $("#face-none").addEventListener("click", () => picked(null));
    $("#btn-calibrate").addEventListener("click", () => call("POST", "/deck/api/calibrate", {}));
    $("#btn-use").addEventListener("click", async () => {
      const { res } = await call("POST", "/deck/api/use");
      if (res.ok) toast(t("deck_saved"));
    });
    $("#btn-forget").addEventListener("click", async () => {
      const { res } = await call("POST", "/deck/api/forget");
      if (res.ok) toast(t("deck_forgotten"));
    });
  }

  function start() {
    wire();
    setReferee(ui.token);
    refresh();
  }

  start();
})();
