// The Naipes web table: the choose-game screen and a seat at a table.
// No framework and no build step. Every text that comes from a rule file or a
// game is set with textContent (never parsed as HTML); the only markup built
// from strings is the icon set below, which is this file's own.
"use strict";

// ------------------------------------------------------------------ icons
// The drawings a rule file's `display:` may name (naipes/display.py ICONS), 100x100.
const ICONS = {
  coin: '<circle cx="50" cy="50" r="42"/><circle cx="50" cy="50" r="29" fill="none" stroke="#fff" stroke-opacity=".55" stroke-width="5"/><circle cx="50" cy="50" r="11" fill="#fff" fill-opacity=".45"/>',
  cup: '<path d="M18 14h64c0 30-12 46-26 50v14h14c4 0 6 3 6 6v4H24v-4c0-3 2-6 6-6h14V64C30 60 18 44 18 14z"/><path d="M27 22h46c-1 16-8 28-23 31C35 50 28 38 27 22z" fill="#fff" fill-opacity=".35"/>',
  sword: '<path d="M50 2l8 14v50H42V16z"/><rect x="22" y="64" width="56" height="9" rx="4"/><rect x="44" y="73" width="12" height="16" rx="2"/><circle cx="50" cy="93" r="6"/><path d="M50 12v50" stroke="#fff" stroke-opacity=".5" stroke-width="3"/>',
  club: '<g transform="rotate(32 50 50)"><path d="M43 97l-5-62C36 14 64 14 62 35l-5 62z"/><circle cx="40" cy="44" r="7"/><circle cx="60" cy="57" r="7"/><circle cx="41" cy="70" r="6"/><circle cx="58" cy="30" r="6"/></g>',
  heart: '<path d="M50 88C18 64 6 48 6 31 6 17 17 7 30 7c9 0 16 5 20 13 4-8 11-13 20-13 13 0 24 10 24 24 0 17-12 33-44 57z"/>',
  diamond: '<path d="M50 4l38 46-38 46-38-46z"/>',
  spade: '<path d="M50 4C40 24 8 38 8 60c0 14 11 23 24 21 6-1 11-5 14-10-1 10-5 18-12 25h32c-7-7-11-15-12-25 3 5 8 9 14 10 13 2 24-7 24-21 0-22-32-36-42-56z"/>',
  clover: '<circle cx="50" cy="27" r="19"/><circle cx="27" cy="56" r="19"/><circle cx="73" cy="56" r="19"/><path d="M45 52c0 20-6 33-13 44h36c-7-11-13-24-13-44z"/>',
  star: '<path d="M50 4l13 31 33 3-25 22 8 33-29-17-29 17 8-33L4 38l33-3z"/>',
  pointed_hat: '<path d="M52 3c4 28 14 52 26 77H22C34 55 44 31 52 3z"/><ellipse cx="50" cy="84" rx="46" ry="10"/><path d="M49 40l3 8 8 .5-6 5 2 8-7-4-7 4 2-8-6-5 8-.5z" fill="#fff" fill-opacity=".8"/>',
  belled_cap: '<path d="M14 82C12 60 8 44 3 32c18 2 32 16 37 34 0-22 4-40 10-54 6 14 10 32 10 54 5-18 19-32 37-34-5 12-9 28-11 50z"/><rect x="12" y="78" width="76" height="12" rx="5"/><circle cx="4" cy="30" r="6"/><circle cx="50" cy="10" r="6"/><circle cx="96" cy="30" r="6"/>',
};
const PALETTE = ["#c62828", "#1f5fa8", "#2e7d32", "#b7860b", "#6a1b9a", "#00838f", "#d84315", "#37474f"];

const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
}

function iconEl(name, colour, size) {
  const span = el("span", "icon");
  if (!Object.prototype.hasOwnProperty.call(ICONS, name)) return span;
  span.innerHTML = `<svg viewBox="0 0 100 100" width="${size}" height="${size}" aria-hidden="true">${ICONS[name]}</svg>`;
  span.style.color = colour;
  return span;
}

const words = (name) => String(name).replace(/_/g, " ");

// --------------------------------------------------------------- the cards
// How a card looks, from its attributes and the rule file's display section.
class Deck {
  constructor(info) {
    this.cards = info.cards || {};
    this.display = info.display || {values: {}, order: [], labels: {}};
    this.players = new Set();
  }

  look(attribute, value) {
    const looks = (this.display.values || {})[attribute] || [];
    const found = looks.find(([v]) => v === value);
    return found ? found[1] : null;
  }

  // the first look among a card's attributes that has `key`
  firstLook(attrs, key) {
    for (const [attribute, value] of Object.entries(attrs)) {
      if (value === null) continue;
      const look = this.look(attribute, value);
      if (look && look[key]) return look;
    }
    return null;
  }

  valueName(attribute, value) {
    const look = this.look(attribute, value);
    return look && look.name ? look.name : String(value);
  }

  isCard(name) {
    return Object.prototype.hasOwnProperty.call(this.cards, name) && !this.players.has(name);
  }

  face(name) {
    const attrs = this.cards[name];
    const d = this.display;
    if (!attrs) return {corner: name, title: name, colour: "#222"};
    let corner = name, caption = null;
    const cornerValue = d.corner ? attrs[d.corner] : null;
    if (cornerValue !== null && cornerValue !== undefined) {
      const look = this.look(d.corner, cornerValue);
      corner = look && look.short ? look.short : String(cornerValue);
      caption = look && look.name && look.name !== corner ? look.name : null;
    } else {
      const look = this.firstLook(attrs, "short");
      if (look) { corner = look.short; caption = look.name || null; }
    }
    const suitValue = d.suit ? attrs[d.suit] : null;
    const suitLook = suitValue !== null && suitValue !== undefined ? this.look(d.suit, suitValue) : null;
    const marker = suitLook && (suitLook.icon || suitLook.symbol) ? suitLook
      : this.firstLook(attrs, "icon") || this.firstLook(attrs, "symbol");
    const colour = (suitLook && suitLook.colour) || (marker && marker.colour) || this.firstLook(attrs, "colour")?.colour
      || (suitValue !== null && suitValue !== undefined ? PALETTE[hash(String(suitValue)) % PALETTE.length] : "#222");
    return {corner, caption, colour, icon: marker && marker.icon, symbol: marker && marker.symbol,
            title: this.title(name, attrs)};
  }

  title(name, attrs) {
    const template = this.display.name;
    if (template) {
      const needed = [...template.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]);
      if (needed.every((a) => attrs[a] !== null && attrs[a] !== undefined)) {
        return template.replace(/\{([^{}]*)\}/g, (_, a) => this.valueName(a, attrs[a])) + ` · ${name}`;
      }
    }
    const named = this.firstLook(attrs, "name");
    return named ? `${named.name} · ${name}` : name;
  }

  // a hand in the rule file's order: by each `order` attribute, its values as `values` lists them where it lists
  // them all, else in their own order (a list of some values, to name them, is no order: Chinchón's figures)
  sort(names) {
    const order = this.display.order || [];
    const listed = (attribute) => (this.display.values || {})[attribute] || [];
    const complete = new Set(order.filter((a) => Object.values(this.cards).every(
      (card) => card[a] === null || card[a] === undefined || listed(a).some(([v]) => v === card[a]))));
    const rank = (attribute, value) => {
      if (value === null || value === undefined) return [2, 0];
      const at = complete.has(attribute) ? listed(attribute).findIndex(([v]) => v === value) : -1;
      return at >= 0 ? [0, at] : [1, value];
    };
    const key = (name) => order.map((a) => rank(a, (this.cards[name] || {})[a]));
    return [...names].sort((x, y) => compareKeys(key(x), key(y)));
  }
}

function compareKeys(a, b) {
  for (let i = 0; i < a.length; i++) {
    const [ka, va] = a[i], [kb, vb] = b[i];
    if (ka !== kb) return ka - kb;
    if (va !== vb) {
      if (typeof va === "number" && typeof vb === "number") return va - vb;
      return String(va).localeCompare(String(vb));
    }
  }
  return 0;
}

function hash(text) {
  let h = 0;
  for (const c of text) h = (h * 31 + c.codePointAt(0)) >>> 0;
  return h;
}

// ----------------------------------------------------------------- colours
// Text is drawn at a contrast of at least 4.5:1 (WCAG AA): a rule file's colour that is too light for the
// paper of a card is darkened until it is.
const rgbCache = new Map();

function rgbOf(colour) {
  if (!rgbCache.has(colour)) {
    const probe = document.createElement("span");
    probe.style.color = colour;
    document.body.appendChild(probe);
    rgbCache.set(colour, getComputedStyle(probe).color.match(/[\d.]+/g).slice(0, 3).map(Number));
    probe.remove();
  }
  return rgbCache.get(colour);
}

function luminance(rgb) {
  const [r, g, b] = rgb.map((v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a, b) {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}

// `colour`, darkened (mixed with black) as little as it takes to read at 4.5:1 on `background`
function readable(colour, background = "#fffdf6") {
  const bg = rgbOf(background);
  let rgb = rgbOf(colour);
  for (let step = 0; step < 20 && contrast(rgb, bg) < 4.5; step++) rgb = rgb.map((v) => v * 0.9);
  return `rgb(${rgb.map(Math.round).join(", ")})`;
}

// a card face up, named for screen readers by its full name ("caballo de oros · 11o")
function cardEl(deck, name, size = "big") {
  const face = deck.face(name);
  const chip = deck.display.shape === "chip";
  const card = el("div", `card ${chip ? "chip" : "face"} ${size}`);
  card.title = face.title;
  card.dataset.card = name;
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", face.title);
  if (chip) {  // the value in black or white, whichever reads better on the chip's colour
    const rgb = rgbOf(face.colour);
    const light = contrast(rgb, [0, 0, 0]) > contrast(rgb, [255, 255, 255]);
    card.style.setProperty("--chip", face.colour);
    card.classList.add(light ? "light" : "dark");
    card.append(el("span", "chip-value", face.corner));
    card.lastChild.style.color = light ? "#000" : "#fff";
    return card;
  }
  card.style.color = readable(face.colour);
  const iconSize = {big: 44, small: 32}[size] || 26;
  const marker = (px) => face.icon ? iconEl(face.icon, face.colour, px) : el("span", "symbol", face.symbol || "");
  const corner = el("div", "corner");
  corner.append(el("span", "index", face.corner), marker(size === "big" ? 16 : 12));
  card.append(corner);
  const centre = el("div", "centre");
  centre.append(face.icon || face.symbol ? marker(iconSize) : el("span", "big-index", face.corner));
  card.append(centre);
  if (face.caption) card.append(el("div", "caption", face.caption));
  return card;
}

// a card named inside a sentence: its corner and icon, in its colour
function tokenEl(deck, name) {
  const face = deck.face(name);
  const token = el("span", "token");
  token.title = face.title;
  token.setAttribute("role", "img");
  token.setAttribute("aria-label", face.title);
  token.style.color = readable(face.colour);
  if (deck.display.shape === "chip") {
    const dot = el("span", "dot");
    dot.style.background = face.colour;
    token.append(dot, el("span", null, face.corner));
    return token;
  }
  token.append(el("span", null, face.corner));
  if (face.icon) token.append(iconEl(face.icon, face.colour, 14));
  else if (face.symbol) token.append(el("span", null, face.symbol));
  return token;
}

// a card face down (the pile or fan it is in says how many, for screen readers)
function backEl(size = "small") {
  const back = el("div", `card back ${size}`);
  back.setAttribute("aria-hidden", "true");
  return back;
}

// text in which card names are drawn as tokens ("P2 takes the trick with 3o")
function richText(deck, text) {
  const span = el("span", "rich");
  for (const part of String(text).split(/(\s+)/)) {
    const m = part.match(/^([\[\](),.:;'"]*)(.*?)([\[\](),.:;'"]*)$/);
    if (m && m[2] && deck.isCard(m[2])) {
      if (m[1]) span.append(m[1]);
      span.append(tokenEl(deck, m[2]));
      if (m[3]) span.append(m[3]);
    } else {
      span.append(part);
    }
  }
  return span;
}

// a state value: a card as a token, a list item by item, nothing as a dash
function valueEl(deck, value) {
  if (value === null || value === undefined) return el("span", "none", "–");
  if (Array.isArray(value)) {
    if (!value.length) return el("span", "none", "–");
    const span = el("span", "list");
    value.forEach((v, i) => { if (i) span.append(", "); span.append(valueEl(deck, v)); });
    return span;
  }
  if (typeof value === "object") return el("span", null, JSON.stringify(value));
  if (typeof value === "string" && deck.isCard(value)) return tokenEl(deck, value);
  if (typeof value === "string" && value.includes(" ")) return richText(deck, value);
  return el("span", null, typeof value === "boolean" ? (value ? "yes" : "no") : value);
}

// -------------------------------------------------------------------- api
async function api(path, options) {
  const response = await fetch(path, options);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

// A human seat opens only with its key, the token its link carries. The keys this browser was given are kept
// (localStorage, this server's pages only) so that the choose-game screen leads back to a seat left.
const Keys = {
  name: (tableId, seat) => `naipes-key:${tableId}:${seat}`,
  get(tableId, seat) { return localStorage.getItem(this.name(tableId, seat)); },
  set(tableId, seat, token) { localStorage.setItem(this.name(tableId, seat), token); },
};

function seatUrl(tableId, seat, token) {
  if (seat === null || seat === undefined || seat === "watch") return `/table/${tableId}?seat=watch`;
  return `/table/${tableId}?seat=${seat}&token=${encodeURIComponent(token)}`;
}

// a table just made: sit at the seat its answer gives the key of (or watch, if every seat is an AI's)
// a finished game's log: its replay, and the file to download
function logLinks(name) {
  const box = el("span", "log-links");
  const replay = el("a", "button", "Replay");
  replay.href = `/replay?log=${encodeURIComponent(name)}&seat=all`;
  const download = el("a", "button", "Download the log");
  download.href = `/api/logs/${encodeURIComponent(name)}`;
  download.setAttribute("download", `naipes-${name}`);
  box.append(replay, download);
  return box;
}

function goToTable(made) {
  if (made.seat !== null) Keys.set(made.id, made.seat, made.token);
  location.href = seatUrl(made.id, made.seat, made.token);
}

function show(section) {
  for (const id of ["lobby", "seat-picker", "table"]) $(id).hidden = id !== section;
}

function fail(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = false;
}

// ------------------------------------------------------------ choose a game
// a rule file's how-to-play (its doc:), a paragraph per line
function rulesText(doc) {
  const box = el("div", "rules");
  for (const line of doc.split("\n")) if (line.trim()) box.append(el("p", null, line));
  return box;
}

const Lobby = {
  games: [],

  async open() {
    show("lobby");
    $("title").textContent = "Choose a game";
    $("games").replaceChildren(el("p", "loading", "Loading the games…"));
    this.showTables();
    this.showSaved();
    try {
      this.games = await api("/api/games");
    } catch (error) {
      fail(error.message);
      return;
    }
    const grid = el("div", "game-grid");
    for (const game of this.games) {
      const tile = el("button", "game-tile");
      tile.type = "button";
      tile.dataset.game = game.name;
      tile.append(el("strong", null, game.title));
      if (game.error) {
        tile.append(el("span", "about error-text", game.error));
        tile.disabled = true;
      } else {
        const p = game.players;
        tile.append(el("span", "about", p.min === p.max ? `${p.min} players` : `${p.min}–${p.max} players`));
        tile.onclick = () => this.choose(game);
      }
      grid.append(tile);
    }
    $("games").replaceChildren(el("h2", null, "Games"), grid);
  },

  // a list of the lobby's (the saved games, the open tables): a heading and an item for each, if there are any
  async showList(id, heading, path, itemFor) {
    let entries = [];
    try { entries = await api(path); } catch (error) { return; }
    const box = $(id);
    box.replaceChildren();
    if (!entries.length) return;
    const list = el("ul", "table-list");
    for (const entry of entries) list.append(itemFor(entry));
    box.append(el("h2", null, heading), list);
  },

  // the server's saved games: a finished one to replay or download, a stopped one to resume
  showSaved() {
    this.showList("saved", "Saved games", "/api/logs", (g) => {
      const item = el("li");
      item.dataset.log = g.name;
      const when = new Date(g.when * 1000).toLocaleString();
      item.append(el("strong", null, g.ruleset), ` ${when} · ${(g.seats || []).join(", ")} — `);
      if (g.finished) {
        item.append(logLinks(g.name));
      } else if (g.in_play) {
        item.append(el("span", "seat-note", "being played"));
      } else {
        const resume = el("button", "primary", "Resume");
        resume.type = "button";
        resume.onclick = async () => {
          try {
            goToTable(await api("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"},
                                                body: JSON.stringify({resume: g.name})}));
          } catch (error) { fail(error.message); }
        };
        item.append(el("span", "seat-note", "stopped before the end"), resume);
      }
      return item;
    });
  },

  showTables() {
    this.showList("open-tables", "Open tables", "/api/tables", (t) => {
      const item = el("li");
      item.append(el("strong", null, t.title), t.over ? ` — over (seed ${t.seed}): ` : ": ");
      for (const s of t.seats) {
        const key = s.human && !t.over ? Keys.get(t.id, s.seat) : null;
        if (key) {
          const a = el("a", "seat-link", `back to ${s.name}`);
          a.href = seatUrl(t.id, s.seat, key);
          item.append(a, " ");
        } else {
          item.append(el("span", "seat-note", `${s.name} ${s.human ? (s.taken ? "(taken)" : "(free)") : `(${s.agent})`}`), " ");
        }
      }
      const watch = el("a", "seat-link", "watch");
      watch.href = `/table/${t.id}?seat=watch`;
      item.append(watch);
      return item;
    });
  },

  // a game chosen: its params and AI levels (the server compiles it now, once), then the form
  async choose(game) {
    const box = $("setup");
    box.hidden = false;
    box.replaceChildren(el("h2", null, game.title), el("p", "loading", "Reading the rules…"));
    box.scrollIntoView({behavior: "smooth"});
    try {
      this.setup(await api(`/api/games/${encodeURIComponent(game.name)}`));
    } catch (error) {
      box.replaceChildren(el("h2", null, game.title), el("p", "error-text", error.message));
    }
  },

  setup(game) {
    const box = $("setup");
    box.hidden = false;
    box.replaceChildren();
    box.append(el("h2", null, game.title));
    if (game.doc) box.append(rulesText(game.doc));
    const form = el("form", "setup-form");
    const count = el("select");
    count.name = "players";
    for (let n = game.players.min; n <= game.players.max; n++) {
      const o = el("option", null, `${n} players`);
      o.value = n;
      o.selected = n === game.players.default;
      count.append(o);
    }
    const seats = el("div", "seats");
    const drawSeats = () => {
      const kept = [...seats.querySelectorAll("select")].map((s) => s.value);
      seats.replaceChildren();
      for (let i = 0; i < Number(count.value); i++) {
        const row = el("label", "seat-row");
        row.append(el("span", "seat-name", `P${i + 1}`));
        const pick = el("select");
        pick.name = `seat${i}`;
        const human = el("option", null, i === 0 ? "you (this tab)" : "a person (another tab)");
        human.value = "human";
        pick.append(human);
        for (const level of game.levels) {
          const o = el("option", null, `${level.name} — ${level.about}`);
          o.value = level.name;
          pick.append(o);
        }
        const ai = game.levels.some((l) => l.name === game.players.ai) ? game.players.ai : game.levels[0].name;
        pick.value = kept[i] || (i === 0 ? "human" : ai);
        row.append(pick);
        seats.append(row);
      }
    };
    count.onchange = drawSeats;
    drawSeats();
    const who = el("fieldset");
    who.append(el("legend", null, "Players"), count, seats);
    form.append(who);

    const params = el("fieldset");
    params.append(el("legend", null, "Rules (params)"));
    for (const p of game.params) params.append(this.paramField(p));
    if (!game.params.length) params.append(el("p", "about", "This game has no params."));
    form.append(params);

    const more = el("fieldset");
    more.append(el("legend", null, "Deal"));
    const seedRow = el("label", "param");
    const seed = el("input");
    seed.type = "number";
    seed.name = "seed";
    seed.placeholder = "random";
    seedRow.append(el("span", "param-name", "seed"), seed, el("span", "doc", "the same seed deals the same game"));
    more.append(seedRow);
    form.append(more);

    const start = el("button", "primary", "Start the game");
    start.type = "submit";
    const note = el("p", "form-error");
    form.append(start, note);
    form.onsubmit = async (event) => {
      event.preventDefault();
      const chosen = {};
      for (const p of game.params) {
        const input = form.elements[`param-${p.name}`];
        const value = input.type === "checkbox" ? (input.checked ? "true" : "false") : input.value;
        if (value !== String(p.default) && !(p.type === "bool" && value === String(p.default).toLowerCase())) chosen[p.name] = value;
      }
      const body = {game: game.name, params: chosen,
                    seats: [...seats.querySelectorAll("select")].map((s) => s.value),
                    seed: seed.value === "" ? null : Number(seed.value)};
      try {
        const made = await api("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"},
                                                body: JSON.stringify(body)});
        goToTable(made);
      } catch (error) {
        note.textContent = error.message;
      }
    };
    box.append(form);
  },

  paramField(p) {
    const row = el("label", "param");
    row.append(el("span", "param-name", p.name));
    let input;
    if (p.type === "bool") {
      input = el("input");
      input.type = "checkbox";
      input.checked = Boolean(p.default);
    } else if (p.choices) {
      input = el("select");
      for (const c of p.choices) {
        const o = el("option", null, c);
        o.value = c;
        o.selected = c === p.default;
        input.append(o);
      }
    } else {
      input = el("input");
      input.type = p.type === "str" ? "text" : "number";
      if (p.type === "float") input.step = "any";
      if (p.min !== null) input.min = p.min;
      if (p.max !== null) input.max = p.max;
      input.value = p.default;
    }
    input.name = `param-${p.name}`;
    const limits = p.min !== null || p.max !== null ? ` (${p.min ?? ""}…${p.max ?? ""})` : "";
    row.append(input, el("span", "doc", `${p.type}, default ${p.default}${limits}${p.doc ? ": " + p.doc : ""}`));
    return row;
  },
};

// ---------------------------------------------------------- pick a seat
async function pickSeat(tableId) {
  show("seat-picker");
  const box = $("seat-picker");
  let tables;
  try { tables = await api("/api/tables"); } catch (error) { fail(error.message); return; }
  const table = tables.find((t) => t.id === tableId);
  if (!table) { fail("There is no such table: start a new game."); return; }
  $("title").textContent = table.title;
  box.replaceChildren(el("h2", null, `${table.title}: choose your seat`));
  for (const s of table.seats) {
    const key = s.human ? Keys.get(tableId, s.seat) : null;
    const b = el("a", "seat-choice", `${s.name} — ${key ? "your seat" : s.human ? (s.taken ? "taken" : "free") : s.agent}`);
    if (key) b.href = seatUrl(tableId, s.seat, key);
    else b.classList.add("disabled");
    box.append(b);
  }
  box.append(el("p", "about", "A person's seat opens with its own link: ask whoever made the table for yours."));
  const watch = el("a", "seat-choice", "watch the game");
  watch.href = `/table/${tableId}?seat=watch`;
  box.append(watch);
}

// --------------------------------------------------------------- the table
const Table = {
  info: null, state: null, records: [], deck: null, socket: null, seat: null,

  open(tableId, seat) {
    show("table");
    this.tableId = tableId;
    const token = new URLSearchParams(location.search).get("token") || Keys.get(tableId, seat);
    if (token && seat !== "watch") Keys.set(tableId, seat, token);
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${tableId}` +
                `?seat=${encodeURIComponent(seat)}&token=${encodeURIComponent(token || "")}`;
    this.socket = new WebSocket(url);
    this.socket.onmessage = (event) => this.receive(JSON.parse(event.data));
    this.socket.onclose = () => {
      if (!this.closedByServer) this.say("Disconnected from the server. Reload the page to reconnect.", "error");
    };
    this.tools();
  },

  // what the table's page does besides drawing: the legend, the side drawer (a phone's), closing menus,
  // fitting the hand to the window, Escape
  tools() {
    document.body.classList.add("at-table");
    $("legend-button").onclick = () => { $("legend").hidden = !$("legend").hidden; };
    const side = $("side-button");
    const drawer = (open) => {
      $("side").classList.toggle("open", open);
      side.setAttribute("aria-expanded", String(open));
      if (open) $("side").focus();
    };
    side.hidden = false;
    side.onclick = (event) => { event.stopPropagation(); drawer(!$("side").classList.contains("open")); };
    $("side-close").onclick = () => { drawer(false); side.focus(); };
    $("side").tabIndex = -1;
    document.addEventListener("click", (event) => {
      if (!$("menu").contains(event.target)) $("menu").hidden = true;
      if (!$("side").contains(event.target)) drawer(false);
    });
    document.addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return;
      for (const id of ["menu", "legend"]) $(id).hidden = true;
      drawer(false);
    });
    window.addEventListener("resize", () => this.fitHands());
  },

  receive(message) {
    if (message.type === "error") {
      this.closedByServer = true;
      fail(message.message);
      return;
    }
    if (message.type === "table") {
      this.info = message;
      this.seat = message.seat;
      this.deck = new Deck(message);
      this.title();
      this.legend();
      this.drawInvites();
    } else if (message.type === "records") {
      this.records.push(...message.records);
      this.history(message.records);
    } else if (message.type === "state") {
      this.state = message;
      if (message.outcome && message.outcome.seed !== undefined) {  // told once every hand is played
        this.info.seed = message.outcome.seed;
        this.title();
      }
      this.say("");
      this.draw();
    } else if (message.type === "seats") {  // a tab came or went
      this.info.seats = message.seats;
      this.drawInvites();
      if (this.state) this.draw();
    } else if (message.type === "refused") {
      this.say(message.reason, "refused");
    }
  },

  send(request) {
    if (!this.state) return;
    this.socket.send(JSON.stringify({serial: this.state.serial, ...request}));
  },

  say(text, kind = "") {
    const box = $("message");
    box.textContent = text;
    box.className = kind;
  },

  title() {
    const info = this.info;
    const me = this.seat === null ? "watching" : `you are ${info.seats[this.seat].name}`;
    const seed = info.seed !== null ? ` · seed ${info.seed}` : info.seed_chosen ? " · a chosen deal" : "";
    $("title").textContent = `${info.title}${seed} · ${me}`;
    document.title = `${info.title} — Naipes`;
    $("legend-button").hidden = !info.doc && !Object.keys(info.display.values || {}).length;
  },

  draw() {
    const {view} = this.state;
    const focused = this.focusKey();
    document.body.dataset.serial = `${this.state.serial}${this.state.over ? "-over" : ""}`;
    this.deck.players = new Set(view.players.map((p) => p.name));
    this.status();
    this.drawOpponents(view);
    this.drawCentre(view);
    this.drawMe(view);
    this.drawScores(view);
    this.drawNews();
    this.drawOver();
    this.fitHands();
    this.refocus(focused);
  },

  // -------------------------------------------------- keyboard and fitting
  // what has the keyboard's focus at the table, to give it back after a redraw (which replaces it)
  focusKey() {
    const node = document.activeElement;
    if (!node || !$("table").contains(node)) return null;
    const zone = node.closest("[data-zone]");
    if (node.dataset.card) return `${zone ? `[data-zone="${CSS.escape(zone.dataset.zone)}"] ` : ""}[data-card="${CSS.escape(node.dataset.card)}"]`;
    if (node.dataset.label) return `#actions [data-label="${CSS.escape(node.dataset.label)}"]`;
    if (zone) return `[data-zone="${CSS.escape(zone.dataset.zone)}"] .cards`;
    return null;
  },

  // the focus back where it was; or, when it is your turn and the focus was lost, on your first legal move
  refocus(key) {
    const again = key && document.querySelector(`#table ${key}`);
    if (again) { again.focus({preventScroll: true}); return; }
    if (this.state.your_turn && (!document.activeElement || document.activeElement === document.body)) {
      const first = document.querySelector("#my-zones .card.legal, #actions .option.legal, #centre .legal");
      if (first) first.focus({preventScroll: true});
    }
  },

  // your hand in as many columns as fit its zone's width (cards overlap, showing at least their corner),
  // in one row, or two (three at most) on a narrow window, so that all of it is on screen
  fitHands() {
    for (const cards of document.querySelectorAll("#my-zones .mine .cards")) {
      const n = cards.children.length;
      if (!n) continue;
      const w = cards.children[0].offsetWidth;
      const room = Math.max(0, cards.parentElement.clientWidth - w);
      const step = (rows) => { const k = Math.ceil(n / rows); return k > 1 ? room / (k - 1) : w; };
      const rows = step(1) >= w * 0.62 ? 1 : step(2) >= w * 0.4 ? 2 : 3;
      const k = Math.ceil(n / rows);
      const gap = Math.min(w + 6, step(rows));
      cards.style.gridTemplateColumns = k > 1 ? `repeat(${k - 1}, ${gap}px) ${w}px` : `${w}px`;
    }
  },

  // a thing that makes a move: focusable, named with what it does, and played with Enter or Space
  actionable(node, label, act, refused = false) {
    node.tabIndex = 0;
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", label);
    if (refused) node.setAttribute("aria-disabled", "true");
    node.onclick = (event) => { event.stopPropagation(); act(); };
    node.onkeydown = (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); event.stopPropagation(); act(); }
    };
  },

  // the links of the human seats nobody has opened, for whoever made the table to send
  drawInvites() {
    const box = $("invites");
    const invites = (this.info && this.info.invites) || {};
    const empty = Object.entries(invites).filter(([seat]) => !this.info.seats[Number(seat)].taken);
    box.hidden = !empty.length || Boolean(this.state && this.state.over);
    if (box.hidden) return;
    box.replaceChildren(el("h2", null, "Invite"));
    for (const [seat, link] of empty) {
      const row = el("label", "invite");
      const url = `${location.origin}/${link}`;
      const field = el("input");
      field.readOnly = true;
      field.value = url;
      field.dataset.seat = seat;
      const copy = el("button", null, "Copy");
      copy.type = "button";
      copy.onclick = async (event) => {
        event.preventDefault();
        try { await navigator.clipboard.writeText(url); } catch (error) { field.select(); document.execCommand("copy"); }
        copy.textContent = "Copied";
      };
      row.append(el("span", null, `${this.info.seats[Number(seat)].name}'s seat, for another person:`), field, copy);
      box.append(row);
    }
  },

  status() {
    const s = this.state;
    const box = $("status");
    box.className = "";
    if (s.over) {
      box.textContent = "Game over";
    } else if (s.your_turn) {
      const open = s.moves.filter((m) => s.options.some((o) => o.move === m));
      box.textContent = `Your turn: ${open.map(words).join(" or ")}${this.progress(s.view)}`;
      box.className = "your-turn";
    } else if (s.to_move) {
      const seat = this.info.seats.find((x) => x.name === s.to_move);
      const who = seat && seat.human ? `${s.to_move} (a person)` : `${s.to_move} (${seat ? seat.agent : "AI"})`;
      box.textContent = `${who} to move…${this.progress(s.view)}`;
    } else {
      box.textContent = "";
    }
  },

  // what a decision under way has so far: the parts of a compound move chosen (a part chosen again and again,
  // each of its values), and who has answered a decision put to several players at once (not what)
  progress(view) {
    const parts = [];
    if (view && view.choosing) parts.push(`chosen so far: ${view.choosing.chosen.flat().join(", ")}`);
    if (view && view.answered && view.answered.length) {
      parts.push(`already answered, not shown until all have: ${view.answered.join(", ")}`);
    }
    return parts.length ? ` (${parts.join("; ")})` : "";
  },

    zoneSpec(name) {
    return this.info.zones.find((z) => z.name === name) || {ordered: true};
  },

  hidden(name) {
    return this.info.hidden.includes(name);
  },

  // a zone as the seat sees it: its cards (face up), or a pile of backs with the top card if it shows
  zoneEl(name, zone, size, labels) {
    const box = el("div", `zone zone-${name}`);
    box.dataset.zone = name;
    box.setAttribute("role", "group");
    const head = el("div", "zone-name", words(name));
    box.append(head);
    const cards = el("div", "cards");
    if (Array.isArray(zone)) {
      box.setAttribute("aria-label", `${words(name)}: ${zone.length} ${zone.length === 1 ? "card" : "cards"}`);
      head.append(el("span", "count", zone.length));
      const names = this.zoneSpec(name).ordered ? zone : this.deck.sort(zone);
      const owners = labels ? [...labels] : null;
      for (const card of names) {
        const face = cardEl(this.deck, card, size);
        if (owners) {
          const at = owners.findIndex((pair) => Array.isArray(pair) && pair[1] === card);
          if (at >= 0) {
            const wrap = el("div", "labelled");
            wrap.append(face, el("span", "owner", owners[at][0]));
            owners.splice(at, 1);
            cards.append(wrap);
            continue;
          }
        }
        cards.append(face);
      }
      if (!zone.length) cards.append(el("div", `card empty ${size}`));
    } else if (zone && typeof zone === "object") {
      const top = zone.top ? `, ${this.deck.face(zone.top).title} on top` : zone.count ? ", face down" : "";
      box.setAttribute("aria-label", `${words(name)}: ${zone.count} ${zone.count === 1 ? "card" : "cards"}${top}`);
      head.append(el("span", "count", zone.count));
      const pile = el("div", "pile");
      if (zone.count === 0) pile.append(el("div", `card empty ${size}`));
      else if (zone.top) pile.append(cardEl(this.deck, zone.top, size));
      else pile.append(backEl(size));
      if (zone.count > 1) pile.classList.add("stacked");
      cards.append(pile);
    }
    box.append(cards);
    return box;
  },

  drawOpponents(view) {
    const box = $("opponents");
    box.replaceChildren();
    for (const p of view.players) {
      if (p.seat === this.seat) continue;
      const seat = this.info.seats[p.seat];
      const panel = el("div", "player");
      panel.dataset.player = p.name;
      panel.setAttribute("role", "group");
      panel.setAttribute("aria-label", `${p.name}${view.to_move === p.name ? ", to move" : ""}`);
      if (view.to_move === p.name) panel.classList.add("to-move");
      const head = el("div", "player-head");
      head.append(el("strong", null, p.name), el("span", "agent", seat.human ? "person" : seat.agent));
      panel.append(head);
      for (const z of this.info.zones.filter((z) => z.per_player)) {
        const zone = p[z.name];
        if (!Array.isArray(zone) && zone.count === 0) continue;
        panel.append(Array.isArray(zone) ? this.zoneEl(z.name, zone, "small") : this.fanEl(z.name, zone.count));
      }
      box.append(panel);
    }
  },

  // another player's hidden cards: a fan of backs and how many
  fanEl(name, count) {
    const box = el("div", `zone fan zone-${name}`);
    box.dataset.zone = name;
    const head = el("div", "zone-name", words(name));
    head.append(el("span", "count", count));
    box.setAttribute("role", "img");
    box.setAttribute("aria-label", `${words(name)}: ${count} ${count === 1 ? "card" : "cards"}, face down`);
    const fan = el("div", "fan-cards");
    for (let i = 0; i < Math.min(count, 10); i++) fan.append(backEl("tiny"));
    box.append(head, fan);
    return box;
  },

  // options a click on the table makes: a zone an option names ('draw stock'), a card on the table an
  // option names (take 10c, a part of a capture), or a card whose attribute an option of a `display.click`
  // move names (take the chips of colour R)
  pointers(view) {
    const s = this.state;
    const all = [...s.options.map((o) => ({...o, legal: true})), ...s.refused.map((o) => ({...o, legal: false}))];
    const zones = new Map(), cards = new Map();
    const add = (map, key, option) => map.set(key, [...(map.get(key) || []), option]);
    const click = this.info.display.click || {};
    for (const o of all) {
      if (typeof o.arg === "string" && Object.prototype.hasOwnProperty.call(view.zones, o.arg)) add(zones, o.arg, o);
      if (o.card) add(cards, o.card, o);
      const attribute = click[o.move];
      if (!attribute) continue;
      for (const [zone, names] of Object.entries(view.zones)) {
        if (!Array.isArray(names)) continue;
        for (const name of new Set(names)) {
          if ((this.deck.cards[name] || {})[attribute] === o.arg) add(cards, name, o);
        }
      }
    }
    return {zones, cards};
  },

  // a thing on the table that options point at: highlighted, and a click makes the move (or offers a menu)
  clickable(node, options) {
    const legal = options.filter((o) => o.legal);
    node.classList.add(legal.length ? "legal" : "refused");
    const choices = legal.length ? legal : options;
    const what = node.getAttribute("aria-label") || node.closest("[data-zone]").getAttribute("aria-label");
    this.actionable(node, `${what}: ${choices.map((o) => o.label).join(" or ")}${legal.length ? "" : " (not allowed now)"}`,
                    () => {
                      if (choices.length > 1) this.menu(node, choices);
                      else this.send({label: choices[0].label, move: choices[0].move});
                    }, !legal.length);
  },

  drawCentre(view) {
    const box = $("centre");
    box.replaceChildren();
    const facts = el("div", "facts");
    for (const [name, value] of Object.entries(view.state)) {
      if (this.hidden(name) || Object.values(this.info.display.labels || {}).includes(name)) continue;
      const fact = el("span", "fact");
      fact.dataset.var = name;
      fact.append(el("span", "fact-name", words(name)), valueEl(this.deck, value));
      facts.append(fact);
    }
    if (view.phase) {
      const fact = el("span", "fact");
      fact.append(el("span", "fact-name", "phase"), el("span", null, view.phase));
      facts.prepend(fact);
    }
    const zones = el("div", "zones");
    const pointers = this.pointers(view);
    for (const [name, zone] of Object.entries(view.zones)) {
      const label = (this.info.display.labels || {})[name];
      const box = this.zoneEl(name, zone, "small", label ? view.state[label] : null);
      const pile = box.querySelector(".cards");
      if (pointers.zones.has(name)) this.clickable(pile, pointers.zones.get(name));
      for (const card of box.querySelectorAll(".card[data-card]")) {
        if (pointers.cards.has(card.dataset.card)) this.clickable(card, pointers.cards.get(card.dataset.card));
      }
      zones.append(box);
    }
    box.append(facts, zones);
  },

  drawMe(view) {
    const s = this.state;
    const me = this.seat === null ? null : view.players.find((p) => p.seat === this.seat);
    const head = $("my-head");
    const zones = $("my-zones");
    head.replaceChildren();
    zones.replaceChildren();
    $("actions").replaceChildren();
    if (!me) {
      head.append(el("strong", null, "You are watching"));
      return;
    }
    head.append(el("strong", null, `${me.name} (you)`));
    if (s.your_turn) head.classList.add("to-move"); else head.classList.remove("to-move");
    for (const [name, value] of Object.entries(me)) {  // what only you see (e.g. your melds)
      if (["name", "seat"].includes(name) || this.hidden(name) || this.info.zones.some((z) => z.name === name)) continue;
      if (this.isPublicColumn(name)) continue;
      const fact = el("span", "fact");
      fact.append(el("span", "fact-name", words(name)), valueEl(this.deck, value));
      head.append(fact);
    }
    const shown = new Set();
    for (const z of this.info.zones.filter((z) => z.per_player)) {
      const zone = me[z.name];
      const box = this.zoneEl(z.name, zone, Array.isArray(zone) ? "big" : "small");
      if (Array.isArray(zone)) {
        box.classList.add("mine");
        for (const card of box.querySelectorAll(".card[data-card]")) {
          shown.add(card.dataset.card);
          this.playable(card);
        }
      }
      zones.append(box);
    }
    this.drawActions(shown);
  },

  // a column of the score table: a variable every player shows
  isPublicColumn(name) {
    return this.state.view.players.filter((p) => p.seat !== this.seat).some((p) => name in p);
  },

  // a card of yours: legal (click plays it), refused (click asks, and the server says why), or idle
  playable(card) {
    const s = this.state;
    const name = card.dataset.card;
    const legal = s.options.filter((o) => o.card === name);
    const refused = s.refused.filter((o) => o.card === name);
    if (legal.length) card.classList.add("legal");
    else if (refused.length) card.classList.add("refused");
    const title = card.getAttribute("aria-label");
    const label = legal.length ? `${title}: ${legal.length > 1 ? "choose a move" : legal[0].label}`
      : refused.length ? `${title} (not allowed now: press for why)` : title;
    this.actionable(card, label, () => {
      if (legal.length > 1) this.menu(card, legal);
      else if (legal.length === 1) this.send({label: legal[0].label, move: legal[0].move});
      else if (refused.length) this.send({label: refused[0].label, move: refused[0].move});
      else this.send({card: name});
    }, !legal.length);
  },

  menu(anchor, options) {
    const menu = $("menu");
    menu.replaceChildren();
    for (const o of options) {
      const b = el("button", "option", null);
      b.type = "button";
      b.setAttribute("role", "menuitem");
      b.append(richText(this.deck, o.label));
      if (o.legal === false) { b.classList.add("refused"); b.title = o.reason || ""; }
      b.onclick = (event) => {
        event.stopPropagation();
        menu.hidden = true;
        anchor.focus({preventScroll: true});
        this.send({label: o.label, move: o.move});
      };
      menu.append(b);
    }
    const r = anchor.getBoundingClientRect();
    menu.hidden = false;
    menu.style.left = `${Math.max(4, Math.min(r.left, window.innerWidth - menu.offsetWidth - 4))}px`;
    menu.style.top = `${Math.max(menu.offsetHeight + 4, r.top - 8)}px`;
    menu.firstChild.focus();
  },

  // options that are not a card of yours: buttons, by move; refused ones greyed, with their reason on click
  drawActions(shown) {
    const s = this.state;
    const box = $("actions");
    const rest = [...s.options.map((o) => ({...o, legal: true})), ...s.refused.map((o) => ({...o, legal: false}))]
      .filter((o) => !o.card || !shown.has(o.card));
    const moves = [...new Set(s.moves)];
    for (const move of moves) {
      const mine = rest.filter((o) => o.move === move);
      if (!mine.length) continue;
      const row = el("div", "action-row");
      row.dataset.move = move;
      row.append(el("span", "move-name", words(move)));
      for (const o of mine) {
        const b = el("button", `option ${o.legal ? "legal" : "refused"}`);
        b.type = "button";
        b.dataset.label = o.label;
        if (o.card) b.append(tokenEl(this.deck, o.card), " ");
        const swatch = this.swatch(o.arg);
        if (swatch) b.append(swatch);
        b.append(richText(this.deck, o.label));
        if (!o.legal) b.title = o.reason || "not allowed now";
        b.onclick = () => this.send({label: o.label, move: o.move});
        row.append(b);
      }
      box.append(row);
    }
  },

  // an option's argument that is a value with a look (a suit, a colour): its icon or colour
  swatch(arg) {
    if (arg === null || typeof arg === "object") return null;
    for (const [attribute, looks] of Object.entries(this.info.display.values || {})) {
      const found = looks.find(([v]) => v === arg);
      if (!found || !(found[1].icon || found[1].colour)) continue;
      const look = found[1];
      if (look.icon) return iconEl(look.icon, look.colour || "#222", 16);
      const dot = el("span", "dot");
      dot.style.background = look.colour;
      return dot;
    }
    return null;
  },

  drawScores(view) {
    const box = $("scores");
    box.replaceChildren(el("h2", null, "Players"));
    const columns = [];
    for (const p of view.players) {
      for (const k of Object.keys(p)) {
        if (["name", "seat"].includes(k) || this.hidden(k) || this.info.zones.some((z) => z.name === k)) continue;
        if (view.players.some((q) => !(k in q))) continue;  // shown to its owner only: in your own row
        if (!columns.includes(k)) columns.push(k);
      }
    }
    const table = el("table", "score-table");
    const head = el("tr");
    head.append(el("th", null, "player"));
    for (const c of columns) head.append(el("th", null, words(c)));
    table.append(head);
    for (const p of view.players) {
      const row = el("tr");
      row.dataset.player = p.name;
      if (p.seat === this.seat) row.classList.add("mine");
      if (view.to_move === p.name) row.classList.add("to-move");
      const seat = this.info.seats[p.seat];
      const who = el("td", "who");
      who.append(el("span", null, p.name), el("span", "agent", p.seat === this.seat ? "you" : seat.human ? "person" : seat.agent));
      row.append(who);
      for (const c of columns) {
        const td = el("td");
        td.append(valueEl(this.deck, p[c]));
        row.append(td);
      }
      table.append(row);
    }
    box.append(table);
  },

  // whether a record tells this seat anything: another's move whose public form is empty (`public: "''"`) does not
  tells(record) {
    return record.type !== "decision" || record.seat === this.seat || String(record.text).trim() !== "";
  },

  recordEl(record) {
    const item = el("li", `record ${record.type}`);
    if (record.type === "decision") {
      const mine = record.seat === this.seat;
      const text = mine && record.own ? record.own : record.text;
      if (!mine && record.told && !record.told.startsWith(":")) {  // the move's own verb: "P2 takes 12o"
        item.append(el("span", "who", record.player), richText(this.deck, record.told));
        return item;
      }
      // a move that reads as a bare card ("2e") says which move it is ("play 2e")
      const said = this.deck.isCard(text) ? `${words(record.move)} ${text}` : text;
      item.append(el("span", "who", mine ? "You" : record.player), ": ", richText(this.deck, said));
    } else if (record.type === "end") {
      item.append(`Game over. ${record.winners.length ? "Winner: " + record.winners.join(", ") : "No winner"}.`);
    } else {
      item.append(richText(this.deck, record.text));
    }
    return item;
  },

  history(records) {
    const list = $("history");
    for (const r of records.filter((r) => this.tells(r))) list.append(this.recordEl(r));
    list.scrollTop = list.scrollHeight;
    if (this.state) this.drawNews();
  },

  // the latest events (a trick taken, a hand scored, and why), on the table
  drawNews() {
    const box = $("news");
    box.replaceChildren();
    for (const r of this.records.filter((r) => this.tells(r)).slice(-4)) box.append(this.recordEl(r));
    if (box.lastChild) box.lastChild.classList.add("latest");
  },

  drawOver() {
    const s = this.state;
    const box = $("over");
    if (!s.over || !s.outcome || this.overShown) return;
    this.overShown = true;
    box.replaceChildren();
    const card = el("div", "over-card");
    const o = s.outcome;
    const heading = (text) => { const h = el("h2", null, text); h.id = "over-title"; return h; };
    if (o.error) card.append(heading("The game stopped"), el("pre", "error-text", o.error));
    else if (o.stopped) card.append(heading("The table was closed"));
    else {
      card.append(heading(o.winners.length ? `${o.winners.join(", ")} ${o.winners.length > 1 ? "win" : "wins"}` : "Nobody wins"));
      if (o.sheet) card.append(this.sheetEl(o.sheet, o.winners));
      if (o.cut_off) card.append(el("p", "about", o.cut_off));
    }
    const again = el("button", "primary", "Play again");
    again.type = "button";
    again.onclick = async () => {
      try {
        const made = await api("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"},
                                                body: JSON.stringify({...this.info.spec, seed: null})});
        goToTable(made);
      } catch (error) { fail(error.message); }
    };
    const choose = el("a", "button", "Choose a game");
    choose.href = "/";
    const look = el("button", null, "Look at the table");
    look.type = "button";
    look.onclick = () => { box.hidden = true; document.querySelector("#my-zones .card, #actions button, #home").focus(); };
    card.append(el("div", "over-buttons"));
    card.lastChild.append(again, choose, look);
    if (o.log) card.append(logLinks(o.log));
    box.append(card);
    box.hidden = false;
    again.focus();
  },

  // the game's score sheet: the scores after each hand, then the totals (the winners' in gold)
  sheetEl(sheet, winners) {
    const box = el("div", "sheet");
    const table = el("table", "score-table");
    table.append(el("caption", null, "Score sheet"));
    const many = sheet.columns.length > 1;
    const head = el("tr");
    head.append(el("th", null, "hand"));
    for (const name of sheet.players) {
      const th = el("th", winners.includes(name) ? "winner" : null, name);
      th.colSpan = sheet.columns.length;
      th.scope = "colgroup";
      head.append(th);
    }
    table.append(head);
    if (many) {
      const names = el("tr");
      names.append(el("th"));
      for (const _ of sheet.players) for (const c of sheet.columns) names.append(el("th", "column", words(c)));
      table.append(names);
    }
    const row = (label, values, kind) => {
      const tr = el("tr", kind);
      tr.append(el("th", null, label));
      values.forEach((player, i) => {
        for (const value of player) {
          const td = el("td", winners.includes(sheet.players[i]) && kind === "total" ? "winner" : null);
          td.append(valueEl(this.deck, value));
          tr.append(td);
        }
      });
      return tr;
    };
    sheet.rows.forEach((values, i) => table.append(row(String(i + 1), values, "hand")));
    table.append(row("total", sheet.total, "total"));
    box.append(table);
    return box;
  },

  legend() {  // how to play (the rule file's doc:) and what the cards are
    const box = $("legend");
    box.replaceChildren();
    if (this.info.doc) box.append(el("h2", null, "How to play"), rulesText(this.info.doc));
    box.append(el("h2", null, "The cards"));
    const deck = this.deck;
    const list = el("dl");
    for (const [attribute, looks] of Object.entries(this.info.display.values || {})) {
      const named = looks.filter(([, look]) => look.name || look.icon || look.symbol);
      if (!named.length) continue;
      list.append(el("dt", null, words(attribute)));
      const dd = el("dd");
      for (const [value, look] of named) {
        const item = el("span", "legend-item");
        const sample = Object.keys(deck.cards).find((n) => deck.cards[n][attribute] === value);
        if (sample) item.append(tokenEl(deck, sample));
        item.append(` ${value}${look.name && look.name !== String(value) ? " = " + look.name : ""}`);
        dd.append(item);
      }
      list.append(dd);
    }
    const close = el("button", null, "Close");
    close.type = "button";
    close.onclick = () => { box.hidden = true; };
    box.append(list, el("p", "about", "Hover over a card for its full name."), close);
  },
};

// ---------------------------------------------------------------- a replay
// naipes replay LOG --web: the logged game step by step, drawn as the table draws a game; nothing to play
const Replay = {
  async open() {
    show("table");
    const query = new URLSearchParams(location.search);
    this.seat = query.get("seat") || "all";
    this.log = query.get("log");  // a saved game of this server's (else the log 'naipes replay --web' names)
    try {
      const info = await api(`/api/replay?${this.query()}`);
      this.steps = info.replay.steps;
      Table.receive(info);
      Table.overShown = true;  // the end is in the history: no dialog over the table
      $("title").textContent = `${info.title} · seed ${info.seed} · replay`;
      $("title").title = info.replay.log;
      Table.tools();
      this.bar(info);
      await this.go(Number(query.get("step") || 0));
    } catch (error) { fail(error.message); }
  },

  bar(info) {
    const button = (text, title, step) => {
      const b = el("button", null, text);
      b.type = "button";
      b.title = title;
      b.dataset.go = title;
      b.onclick = () => this.go(step());
      return b;
    };
    this.label = el("span", "replay-step");
    const seat = el("select");
    seat.id = "replay-seat";
    const views = [["all", "every card"], ["watch", "an onlooker"], ...info.seats.map((s) => [String(s.seat), s.name])];
    for (const [value, text] of views) {
      const option = el("option", null, text);
      option.value = value;
      option.selected = value === this.seat;
      seat.append(option);
    }
    seat.onchange = () => { location.href = `/replay?${this.query(seat.value)}&step=${this.step}`; };
    const label = el("label", null, "seen by ");
    label.append(seat);
    $("replay-bar").replaceChildren(button("«", "first", () => 0), button("◀", "back", () => this.step - 1),
                                    this.label, button("▶", "forward", () => this.step + 1),
                                    button("»", "last", () => this.steps), label);
    $("replay-bar").hidden = false;
    document.addEventListener("keydown", (event) => {
      if (event.target.tagName === "SELECT") return;
      if (event.key === "ArrowRight") this.go(this.step + 1);
      else if (event.key === "ArrowLeft") this.go(this.step - 1);
    });
  },

  // the query naming the log and the seat (whose view)
  query(seat = this.seat) {
    return `seat=${encodeURIComponent(seat)}` + (this.log ? `&log=${encodeURIComponent(this.log)}` : "");
  },

  async go(step) {
    step = Math.max(0, Math.min(this.steps, step));
    try {
      const data = await api(`/api/replay/${step}?${this.query()}`);
      this.step = step;
      Table.records = [];
      $("history").replaceChildren();
      Table.receive(data.records);
      Table.receive(data.state);
      this.label.textContent = `step ${step} of ${this.steps}`;
      document.body.dataset.step = String(step);
      history.replaceState(null, "", `/replay?${this.query()}&step=${step}`);
    } catch (error) { fail(error.message); }
  },
};

// ------------------------------------------------------------------ start
function main() {
  const parts = location.pathname.split("/").filter(Boolean);
  if (parts[0] === "replay") {
    Replay.open();
  } else if (parts[0] === "table" && parts[1]) {
    const seat = new URLSearchParams(location.search).get("seat");
    if (seat === null) pickSeat(parts[1]);
    else Table.open(parts[1], seat);
  } else {
    Lobby.open();
  }
}

main();
