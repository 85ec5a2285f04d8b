// The referee's timeline: this round's events (GET /api/timeline) with, for each past
// one, Correct…, Delete and Add before… (POST /api/amend). The dialog says what will
// change before it is sent: "Delete “#7 Draw · Bob — camera”? 1 later event will be
// judged again." Uses what app.js shares as window.UNO.
"use strict";

(function () {
  const $ = (sel) => document.querySelector(sel);
  const U = () => window.UNO;
  // The events the amend form can put in (a deal or an undo cannot be).
  const TYPES = ["play", "draw", "pass", "color", "flip", "uno"];
  const COLORS = ["red", "yellow", "green", "blue"];
  const state = { entries: [], target: null, action: null, card: "red-0", toBottom: false };

  function open() {
    $("#dlg-timeline").showModal();
    state.toBottom = true;  // the latest events first in sight
    refresh();
  }

  async function refresh() {
    if (!$("#dlg-timeline").open) return;
    try {
      const res = await fetch("/api/timeline");
      state.entries = (await res.json()).events || [];
    } catch (err) { return; }
    render();
  }

  // How many events an amendment of entry k judges again.
  function laterCount(k, action) {
    return state.entries.length - k - (action === "insert" ? 0 : 1);
  }

  function render() {
    const { el, t, describe, alertText } = U();
    const list = $("#timeline-list");
    list.replaceChildren();
    if (!state.entries.length) {
      list.append(el("li", { class: "muted" }, t("timeline_empty")));
      return;
    }
    state.entries.forEach((entry, k) => {
      const verdict = entry.alerts.length
        ? entry.alerts.map((a) => el("div", { class: "alert-line" }, alertText(a)))
        : [el("div", { class: "tl-ok" }, t(entry.applied ? "timeline_ok" : "rejected"))];
      const li = el("li", { class: "tl-entry" + (entry.alerts.length || !entry.applied ? " bad" : ""),
        "data-n": String(entry.n), "data-type": entry.event.type, "data-source": entry.source },
      el("div", { class: "tl-what" }, describe(entry.n, entry.event, entry.source)), ...verdict);
      if (k > 0 && U().ui.token) {  // the deal itself is not amended: start a new round
        // The form says plays, draws, passes, colours, flips and calls; a catch, a
        // challenge or a round's end is deleted (and entered again) instead.
        const correctable = TYPES.includes(entry.event.type);
        li.append(el("div", { class: "tl-actions" },
          correctable ? el("button", { type: "button", class: "small", "data-action": "replace",
            onclick: () => openAmend(k, "replace") }, t("amend_replace")) : "",
          el("button", { type: "button", class: "small warn", "data-action": "delete",
            onclick: () => openAmend(k, "delete") }, t("amend_delete")),
          el("button", { type: "button", class: "small", "data-action": "insert",
            onclick: () => openAmend(k, "insert") }, t("amend_insert"))));
      }
      list.append(li);
    });
    if (state.toBottom) list.scrollTop = list.scrollHeight;
    state.toBottom = false;
  }

  // -- the amend dialog --------------------------------------------------------------

  function openAmend(k, action) {
    const { t, el, players, ui } = U();
    const entry = state.entries[k];
    state.target = k;
    state.action = action;
    $("#amend-title").textContent = t("amend_title_" + action);
    $("#amend-form").hidden = action === "delete";
    // A missed event is most often a draw by whoever's turn it was (no player named:
    // the tracker takes the player on turn at that point).
    const base = action === "replace" ? entry.event : { type: "draw" };
    const type = TYPES.includes(base.type) ? base.type : "play";
    $("#amend-type").replaceChildren(...TYPES.map((ty) =>
      el("option", { value: ty }, ((window.I18N[ui.lang] || {}).ev || {})[ty] || ty)));
    $("#amend-type").value = type;
    state.card = base.card || (base.cards && base.cards[0]) || "red-0";
    $("#amend-color").replaceChildren(el("option", { value: "" }, "–"),
      ...COLORS.map((c) => el("option", { value: c }, t(c))));
    $("#amend-color").value = base.color || "";
    $("#amend-player").replaceChildren(el("option", { value: "" }, t("amend_whoever")),
      ...players(ui.snapshot).map((p) => el("option", { value: p }, p)));
    $("#amend-player").value = base.player || "";
    $("#amend-count").value = String(base.count || 1);
    showFields();
    $("#dlg-amend").showModal();
  }

  function showFields() {
    const type = $("#amend-type").value;
    $("#amend-card-row").hidden = !["play", "flip"].includes(type);
    $("#amend-color-row").hidden = !["play", "flip", "color"].includes(type);
    $("#amend-player-row").hidden = !["play", "draw", "pass", "uno"].includes(type);
    $("#amend-count-row").hidden = type !== "draw";
    $("#amend-card").textContent = U().cardLabel(state.card);
    $("#amend-card").dataset.card = state.card;
    sayWhat();
  }

  // The event the form describes, as POST /api/amend takes it.
  function formEvent() {
    const type = $("#amend-type").value;
    const event = { type };
    if (!$("#amend-card-row").hidden) event.card = state.card;
    if (!$("#amend-color-row").hidden && $("#amend-color").value) event.color = $("#amend-color").value;
    if (!$("#amend-player-row").hidden && $("#amend-player").value) event.player = $("#amend-player").value;
    const count = Number($("#amend-count").value) || 1;
    if (!$("#amend-count-row").hidden && count > 1) event.count = count;
    return event;
  }

  // What will change, in words, before the referee confirms.
  function sayWhat() {
    const { t, describe, eventWords } = U();
    const entry = state.entries[state.target];
    if (!entry) return;
    const what = describe(entry.n, entry.event, entry.source);
    const k = laterCount(state.target, state.action);
    const vars = { what, new: state.action === "delete" ? "" : eventWords(formEvent()), k };
    const later = k === 0 ? t("amend_none_later") : t(k === 1 ? "amend_later_one" : "amend_later", { k });
    const gap = U().ui.lang === "zh" ? "" : " ";  // Chinese sentences run on
    $("#amend-what").textContent = t("amend_confirm_" + state.action, vars) + gap + later;
  }

  async function send() {
    const entry = state.entries[state.target];
    if (!entry) return;
    const body = { n: entry.n, action: state.action };
    if (state.action !== "delete") body.event = formEvent();
    const { res, data } = await U().post("/api/amend", body);
    if (res.ok) {
      const a = data.verdict.amend || {};
      const left = (a.alerts || []).length;
      U().toast(U().t("amend_done", { k: a.judged_again, alerts: left }));
      // A question the healer asks about an event judged again gets its buttons.
      const asks = (a.alerts || []).filter((x) => x.code === "ask-referee");
      if (asks.length) U().showAlert(asks);
    }
    refresh();
  }

  function wire() {
    $("#btn-timeline").addEventListener("click", open);
    $("#amend-type").addEventListener("change", showFields);
    ["#amend-color", "#amend-player", "#amend-count"].forEach((sel) =>
      $(sel).addEventListener("input", sayWhat));
    $("#amend-card").addEventListener("click", () =>
      U().pickCard(U().t("pick_correct"), (card, color) => {
        state.card = card;
        if (color) $("#amend-color").value = color;
        showFields();
      }));
    $("#dlg-amend").addEventListener("close", () => {
      if ($("#dlg-amend").returnValue === "ok") send();
    });
    document.addEventListener("uno:changed", refresh);
  }

  wire();
})();
