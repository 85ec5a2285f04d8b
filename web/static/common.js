// What every page of the tablet shares: the referee's token (taken once from a
// ?token= link, then kept in this browser), the language (kept too) and its strings,
// the toast, the bar's buttons and building elements. Loaded after i18n.js and before
// the page's own script.
"use strict";

window.UnoPage = (function () {
  const TOKEN_KEY = "uno.token";
  const LANG_KEY = "uno.lang";
  /** The four card colours (a wild's colour is none of them). */
  const COLORS = ["red", "yellow", "green", "blue"];

  /** An element: ``attrs`` set (``class``; ``on<event>`` a listener), ``children``
   *  appended (null and undefined left out). */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  }

  /** A card's colour: one of :data:`COLORS`, "black" for a wild, "none" for no card. */
  function cardColor(card) {
    if (!card) return "none";
    const c = card.split("-")[0];
    return COLORS.includes(c) ? c : "black";
  }

  /** The token of a ?token= link (kept, and dropped from the address), else the kept one. */
  function takeToken() {
    const fromLink = new URLSearchParams(location.search).get("token");
    if (fromLink) {
      localStorage.setItem(TOKEN_KEY, fromLink);
      history.replaceState(null, "", location.pathname);
    }
    return localStorage.getItem(TOKEN_KEY) || "";
  }

  /** Keep ``token`` on this device (an empty one forgets it). */
  function keepToken(token) {
    if (token) localStorage.setItem(TOKEN_KEY, token); else localStorage.removeItem(TOKEN_KEY);
  }

  /** The kept language, else the browser's (Chinese or English). */
  function initialLang() {
    return localStorage.getItem(LANG_KEY) || ((navigator.language || "").startsWith("zh") ? "zh" : "en");
  }

  /** The other language, kept. */
  function switchLang(lang) {
    const next = lang === "zh" ? "en" : "zh";
    localStorage.setItem(LANG_KEY, next);
    return next;
  }

  /** ``key``'s string in ``lang`` (English, then the key, when missing), each {name} filled. */
  function translate(lang, key, vars) {
    const table = window.I18N[lang] || window.I18N.en;
    let s = table[key] !== undefined ? table[key] : (window.I18N.en[key] || key);
    for (const [k, v] of Object.entries(vars || {})) s = s.split("{" + k + "}").join(v);
    return s;
  }

  /** The page in ``lang``: its language, every [data-i18n] text, the language button. */
  function showLanguage(lang) {
    document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
    document.querySelectorAll("[data-i18n]").forEach((n) => { n.textContent = translate(lang, n.dataset.i18n); });
    const button = document.querySelector("#btn-lang");
    if (button) button.textContent = lang === "zh" ? "English" : "中文";
  }

  let toastTimer = null;
  /** A passing message in #toast (``bad``: an error), hidden after ``ms``. */
  function toast(text, bad, ms) {
    const box = document.querySelector("#toast");
    box.textContent = text;
    box.classList.toggle("bad", !!bad);
    box.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { box.hidden = true; }, ms || 4000);
  }

  /** The bar's buttons: #btn-lang switches ``ui.lang`` and calls ``onLanguage``; on a
   *  page with #btn-referee, it opens the token dialog (#dlg-token), whose OK or Clear
   *  calls ``onToken`` with the token typed (or ""). */
  function wireBar(ui, onLanguage, onToken) {
    document.querySelector("#btn-lang").addEventListener("click", () => {
      ui.lang = switchLang(ui.lang);
      onLanguage();
    });
    const referee = document.querySelector("#btn-referee");
    if (!referee) return;
    const dialog = document.querySelector("#dlg-token");
    const input = document.querySelector("#token-input");
    referee.addEventListener("click", () => {
      input.value = ui.token;
      dialog.showModal();
    });
    dialog.addEventListener("close", () => {
      if (dialog.returnValue === "ok") onToken(input.value.trim());
      if (dialog.returnValue === "clear") onToken("");
    });
  }

  return {
    COLORS, el, cardColor,
    takeToken, keepToken, initialLang, switchLang, translate, showLanguage, toast, wireBar,
  };
})();
