// Card names in words and alert sentences in the page's language.
//
// The tracker sends each alert's sentence in English and Chinese (messages.en/.zh),
// written with card codes ("red-7 on green-draw2"), "1 penalty cards", and English
// color names and details inside the Chinese. sentence() turns such a message into
// what a referee reads: card names in words in the page's language, the singular for
// one card, Chinese colors in Chinese, no English detail inside a Chinese alert.
"use strict";

(function () {
  const COLORS = ["red", "yellow", "green", "blue"];
  const NAMES = {
    en: {
      red: "Red", yellow: "Yellow", green: "Green", blue: "Blue",
      skip: "Skip", reverse: "Reverse", draw2: "Draw Two",
      wild: "Wild", "wild-draw4": "Wild Draw Four", back: "a face-down card",
    },
    zh: {
      red: "红", yellow: "黄", green: "绿", blue: "蓝",
      skip: "禁止", reverse: "反转", draw2: "+2",
      wild: "万能牌", "wild-draw4": "万能 +4", back: "背面朝上的牌",
    },
  };
  const CARD = /\b(?:(red|yellow|green|blue)-([0-9]|skip|reverse|draw2)|wild-draw4|wild)\b/g;

  function table(lang) { return NAMES[lang] || NAMES.en; }

  // "red-7" -> "Red 7" / "红 7"; "wild-draw4" -> "Wild Draw Four" / "万能 +4".
  function cardName(card, lang) {
    if (!card) return "–";
    const words = table(lang);
    if (words[card] && !COLORS.includes(card)) return words[card];
    const dash = card.indexOf("-");
    if (dash < 0) return card;
    const color = card.slice(0, dash), value = card.slice(dash + 1);
    return (words[color] || color) + " " + (words[value] || value);
  }

  function sentence(alert, lang) {
    const m = alert.messages || {};
    let text = m[lang] || m.en || alert.message || alert.code || "";
    text = text.replace(CARD, (card) => cardName(card, lang));
    if (lang === "zh") {
      text = text.replace(/\b(red|yellow|green|blue)\b/g, (c) => NAMES.zh[c]);
      // "事件已忽略：手牌不够（Bob has 3 cards...）": the Chinese says it already.
      if (alert.code === "bad-event") text = text.replace(/（[^（）\u4e00-\u9fff]*）$/, "");
    } else {
      // One card is a card: "take the 1 penalty cards", "shows 1 cards".
      text = text.replace(/\b1 (penalty |more )?cards\b/g, "1 $1card");
    }
    return text;
  }

  // "3 cards" / "1 card" / "3 张".
  function cards(n, lang) {
    if (lang === "zh") return n + " 张";
    return n === 1 ? "1 card" : n + " cards";
  }

  window.WORDS = { cardName, sentence, cards };
})();
