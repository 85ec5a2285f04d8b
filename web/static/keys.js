// The referee's keyboard shortcuts, and the screen kept awake while refereeing.
//
// A shortcut presses the page's own button, so it does exactly what a tap does (and
// nothing when that button is hidden: spectators have none). Keys: D draw (or take
// the penalty), P pass, L play…, F flip…, U undo…, C correct card…, T timeline…, S start round…,
// E end round…, 1-4 name red/yellow/green/blue. Not while a dialog is open or a field
// has the focus.
"use strict";

(function () {
  const KEYS = {
    d: "#btn-draw", p: "#btn-pass", l: "#btn-play", f: "#btn-flip", u: "#btn-undo",
    c: "#btn-correct", t: "#btn-timeline", s: "#btn-start-round", e: "#btn-end-round",
    1: '.controls-panel [data-color="red"]', 2: '.controls-panel [data-color="yellow"]',
    3: '.controls-panel [data-color="green"]', 4: '.controls-panel [data-color="blue"]',
  };

  function typing(target) {
    return target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName);
  }

  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.repeat || typing(ev.target)) return;
    if (!document.body.classList.contains("referee") || document.querySelector("dialog[open]")) return;
    const selector = KEYS[ev.key.toLowerCase()];
    const button = selector && document.querySelector(selector);
    if (!button || button.closest("[hidden]") || button.disabled) return;
    ev.preventDefault();
    button.click();
  });

  // Each button's tooltip names its key.
  document.addEventListener("DOMContentLoaded", () => {
    for (const [key, selector] of Object.entries(KEYS)) {
      const button = document.querySelector(selector);
      if (button) button.setAttribute("aria-keyshortcuts", key.toUpperCase());
    }
  });

  // Keep the screen on while refereeing. The Wake Lock API needs a secure page
  // (https or localhost); on a plain-http LAN link the tablet's own setting applies.
  let lock = null;
  async function stayAwake() {
    const wanted = document.body.classList.contains("referee") && document.visibilityState === "visible";
    if (!wanted || lock || !("wakeLock" in navigator)) {
      document.body.dataset.awake = lock ? "on" : ("wakeLock" in navigator ? "off" : "unsupported");
      return;
    }
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => { lock = null; document.body.dataset.awake = "off"; });
      document.body.dataset.awake = "on";
    } catch (err) {
      document.body.dataset.awake = "refused";
    }
  }
  document.addEventListener("visibilitychange", stayAwake);
  document.addEventListener("pointerdown", stayAwake);
  new MutationObserver(stayAwake).observe(document.body, { attributes: true, attributeFilter: ["class"] });
})();
