// The web table's page: the lobby, the seats, and the table itself, fed by one websocket.
// Everything shown comes from the server's messages (docs/web-table.md); text is always
// set with textContent, never parsed as HTML.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined && text !== null) node.textContent = String(text);
  return node;
};

const page = {
  table: null,          // the table id, from /t/ID
  socket: null,
  state: null,          // the last "state" message
  log: [],              // [round, text] lines for this seat
  kinds: [],            // what each line of the log tells (its record event, "round", "notice")
  selected: new Set(),  // indexes of the selected cards in the hand
  sent: false,          // a move was sent for the current decision
  queued: null,         // a move chosen while disconnected: sent after reconnecting, if still current
  reconnected: false,   // welcomed again: the next state says whether a move is still awaited
  retry: 500,
  resultClosed: false,
  drawnTurn: null,      // the decision the table was last drawn for
  invites: {},          // seat -> the invite link this page's creator made for it
};

function keyOf(kind) { return `chimera.${kind}.${page.table}`; }

// -- words -------------------------------------------------------------------------------------
// Every word the page writes comes from the catalogs' "page" section, in the language the
// server picked for this page (/api/words: ?lang= in the address, else the browser's languages,
// else the server's --lang); docs/translating.md says how a language is added.

const lang = { code: "en", words: {}, asked: new URLSearchParams(location.search).get("lang") };

function T(key, fields = {}, n) {
  // the sentence `key`, its {fields} filled in; a [one, many] pair chosen by `n`
  let text = lang.words[key];
  if (Array.isArray(text)) text = text[n === 1 ? 0 : 1];
  if (typeof text !== "string") return key;
  const values = { n, ...fields };
  return text.replace(/\{(\w+)\}/g, (all, name) => (values[name] === undefined ? all : String(values[name])));
}

async function loadWords() {
  const query = lang.asked ? `?lang=${encodeURIComponent(lang.asked)}` : "";
  try {
    const answer = await fetch(`/api/words${query}`);
    const data = await answer.json();
    lang.code = data.lang;
    lang.words = data.words;
  } catch (error) {
    return;            // the page's markup keeps its English words
  }
  document.documentElement.lang = lang.code;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = T(node.dataset.t);
  for (const node of document.querySelectorAll("[data-t-placeholder]")) node.placeholder = T(node.dataset.tPlaceholder);
  for (const node of document.querySelectorAll("[data-t-label]")) node.setAttribute("aria-label", T(node.dataset.tLabel));
  document.title = T("title");
}

function phaseWord(phase) { return ((page.state && page.state.phases) || {})[phase] || (lang.words.phases || {})[phase] || phase; }
function colourWord(colour) { return (lang.words.colours || {})[colour] || colour; }

function notice(text, kind, ms = 6000) {
  const box = $("notice");
  box.textContent = text;
  box.className = kind || "";
  box.hidden = false;
  clearTimeout(notice.timer);
  notice.timer = setTimeout(() => { box.hidden = true; }, ms);
}

// -- the lobby ---------------------------------------------------------------------------------

async function showLobby() {
  $("lobby").hidden = false;
  $("connection").hidden = true;
  $("create").onclick = async () => {
    const answer = await fetch(`/api/tables?lang=${encodeURIComponent(lang.code)}`, { method: "POST" });
    const data = await answer.json();
    if (!answer.ok) { notice(data.error || T("not_opened"), "error"); return; }
    localStorage.setItem(`chimera.creator.${data.table}`, data.creator);
    location.href = data.url + location.search;
  };
  const answer = await fetch(`/api/tables?lang=${encodeURIComponent(lang.code)}`);
  const data = await answer.json();
  $("variant").textContent = data.variant;
  const list = $("open-tables");
  if (data.tables.length) list.replaceChildren();
  for (const t of data.tables) {
    const item = el("li");
    const link = el("a", null, T("table_link", { table: t.table }));
    link.href = `/t/${t.table}${location.search}`;
    const free = t.seats.filter((s) => s.kind === "free").length;
    item.append(link, el("span", "muted", ` ${T("status_" + t.status)}` + (t.status === "waiting" ? T("free_seats", {}, free) : "")));
    list.append(item);
  }
}

// -- the connection ----------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${page.table}?lang=${encodeURIComponent(lang.code)}`);
  page.socket = socket;
  socket.onopen = () => {
    page.retry = 500;
    $("connection").textContent = T("connected");
    $("connection").className = "pill ok";
    socket.send(JSON.stringify({
      type: "hello",
      token: localStorage.getItem(keyOf("seat")) || undefined,
      creator: localStorage.getItem(keyOf("creator")) || undefined,
    }));
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    $("connection").textContent = T("reconnecting");
    $("connection").className = "pill bad";
    if (event.code === 4404) { $("connection").textContent = T("no_such_table_pill"); return; }
    if (event.code === 4429) { $("connection").textContent = T("too_many_sockets_pill"); return; }
    setTimeout(connect, page.retry);
    page.retry = Math.min(page.retry * 2, 5000);
  };
}

function send(message) {
  if (page.socket && page.socket.readyState === WebSocket.OPEN) {
    page.socket.send(JSON.stringify(message));
    return true;
  }
  return false;
}

function receive(message) {
  if (message.type === "error") {
    notice(message.reason, "error");
    page.sent = false;
    if (page.state) render();
  } else if (message.type === "resuming") {        // after a restart: the table answers once replayed
    $("connection").textContent = T("resuming_pill");
    notice(message.reason, "ok");
  } else if (message.type === "invited") {
    page.invites[message.seat] = location.origin + message.url;
    notice(T("invited", { seat: message.seat }), "ok");
    if (page.state) render();
  } else if (message.type === "removed") {
    localStorage.removeItem(keyOf("seat"));
    notice(message.reason, "error");
  } else if (message.type === "seated") {
    sessionStorage.removeItem(keyOf("invite"));
    localStorage.setItem(keyOf("seat"), message.token);
    notice(T("seated"), "ok");
  } else if (message.type === "welcome") {
    if (message.seat === null) localStorage.removeItem(keyOf("seat"));
    page.reconnected = true;
    $("connection").textContent = T("connected");       // after "resuming…"
  } else if (message.type === "state") {
    if (message.log.from === 0) page.log = [];
    if (message.log.from === 0) page.kinds = [];
    if (message.log.from === page.log.length) {
      page.log.push(...message.log.lines);
      const kinds = message.log.kinds || [];
      page.kinds.push(...message.log.lines.map((l, i) => kinds[i] || kindOf(l[1] || "")));
      if (message.log.from > 0 && message.status !== "over") roundResult(message.log.from);
    }
    if (!page.state || page.state.turn !== message.turn || page.state.seat !== message.seat) {
      page.selected.clear();
      page.sent = false;
    }
    if (page.reconnected) {
      // a move chosen while the connection was down goes now if its decision is still awaited;
      // otherwise (or if a move sent was lost with the connection) the controls are live again
      page.reconnected = false;
      const move = page.queued;
      page.queued = null;
      if (move && move.turn === message.turn && message.to_act === message.seat && message.seat !== null) {
        page.sent = send(move);
      } else {
        page.sent = false;
      }
    }
    if (page.state && page.state.status === "waiting" && message.status === "playing") $("notice").hidden = true;
    page.state = message;
    render();
  }
}

// What each line of the log tells, as the server says it (log.kinds: the record's event, "round"
// for the line heading a round, "notice"); for a server that says nothing, read from English words
const ROUND_RESULT = / is out first|^\s*everyone passed: the round is void|^\s*tricks taken:/;

function kindOf(text) {
  if (/^Round \d+/.test(text)) return "round";
  if (text.startsWith("Game over")) return "game_end";
  if (ROUND_RESULT.test(text) || /^\s*totals:/.test(text)) return "round_end";
  return "";
}

function resultLines(from, to) {
  // the lines of the last round's result (its round_end lines: who went out to the totals) in [from, to)
  let end = to - 1;
  while (end >= from && page.kinds[end] !== "round_end") end--;
  if (end < from) return [];
  let start = end;
  while (start > from && page.kinds[start - 1] === "round_end") start--;
  return page.log.slice(start, end + 1).map((l) => (l[1] || "").trim()).filter(Boolean);
}

function roundResult(from) {
  // a round just ended: show its result for a while
  const lines = resultLines(from, page.log.length);
  if (lines.length) notice(lines.join("\n"), "ok round", 12000);
}

// -- drawing -----------------------------------------------------------------------------------

function seatName(seat) {
  // the seat's name as the server shows it (every seat's differs), "you" marked
  const s = page.state.seats[seat];
  const name = (s && s.name) || T("seat", { n: seat });
  return seat === page.state.seat ? T("you", { name }) : name;
}

function rankOf(card) { return String(card).split("/")[0]; }
function suitOf(card) { return String(card).split("/")[1]; }

// How a suit is drawn, by its name in the variant's deck (`colours:`), whatever the game: as the
// deck's `looks` say, else the French suits by their symbols, colours by a pip of that colour, a
// deck's `wild_colours` as a many-coloured star, any other name by its initial in a colour of
// its place in the deck.
const SUIT_LOOKS = {
  hearts: { symbol: "♥", ink: "#c8102e" }, heart: { symbol: "♥", ink: "#c8102e" },
  diamonds: { symbol: "♦", ink: "#d9480f" }, diamond: { symbol: "♦", ink: "#d9480f" },
  spades: { symbol: "♠", ink: "#111827" }, spade: { symbol: "♠", ink: "#111827" },
  clubs: { symbol: "♣", ink: "#14532d" }, club: { symbol: "♣", ink: "#14532d" },
  red: { symbol: "●", ink: "#d32f2f", word: true }, yellow: { symbol: "●", ink: "#b58900", word: true },
  green: { symbol: "●", ink: "#2e7d32", word: true }, blue: { symbol: "●", ink: "#1d4ed8", word: true },
  black: { symbol: "●", ink: "#111827", word: true }, white: { symbol: "○", ink: "#475569", word: true },
  orange: { symbol: "●", ink: "#ea580c", word: true }, purple: { symbol: "●", ink: "#7e22ce", word: true },
  pink: { symbol: "●", ink: "#db2777", word: true }, brown: { symbol: "●", ink: "#854d0e", word: true },
  grey: { symbol: "●", ink: "#4b5563", word: true }, gray: { symbol: "●", ink: "#4b5563", word: true },
};
const PALETTE = ["#c8102e", "#1d4ed8", "#2e7d32", "#b58900", "#7e22ce", "#0f766e", "#db2777", "#374151"];

function deckOf() { return (page.state && page.state.deck) || { colours: [], wild: [], names: {} }; }

function suitLook(suit) {
  const deck = deckOf();
  const given = (deck.looks || {})[suit] || {};
  let look;
  if ((deck.wild || []).includes(suit)) look = { symbol: "✦", ink: "#7e22ce", wild: !given.colour, word: true };
  else look = SUIT_LOOKS[String(suit).toLowerCase()];
  if (!look) {
    const place = Math.max(0, (deck.colours || []).indexOf(suit));
    look = { symbol: String(suit).charAt(0).toUpperCase(), ink: PALETTE[place % PALETTE.length] };
  }
  return { ...look, symbol: given.symbol || look.symbol, ink: given.colour || look.ink };
}

function cardTitle(rank, suit) {
  const name = (deckOf().names || {})[rank] || rank;
  if (!suit) return name;
  return T(suitLook(suit).word ? "card_word" : "card_of", { suit: colourWord(suit), name });
}

function trumpNode(trump) {
  // a trump by name, with its suit's symbol when it is one of the deck's colours
  const node = el("strong", "trump");
  if (trump && (deckOf().colours || []).includes(trump)) {
    const look = suitLook(trump);
    const sym = el("span", look.wild ? "suit wild" : "suit", look.symbol);
    sym.style.color = look.ink;
    node.append(sym, " ");
  }
  node.append(trumpWord(trump));
  return node;
}

function trumpWord(trump) { return trump === null ? T("trump_passed") : trump === "none" ? T("no_trump") : colourWord(trump); }

function cardNode(card, drawn) {
  // one card: its rank and suit in the corner, the suit's symbol large; `drawn`: the very card
  // to draw when `card` names the rank alone (a hand whose rules read no colours)
  const [rank, suit] = String(drawn || card).split("/");
  const node = el("span", "card");
  node.dataset.card = card;
  const corner = el("span", "corner");
  corner.append(el("span", "rank", rank));
  node.append(corner);
  if (suit) {
    const look = suitLook(suit);
    node.dataset.suit = suit;
    node.style.color = look.ink;
    if (look.wild) node.classList.add("wild");
    corner.append(el("span", "suit", look.symbol));
    node.append(el("span", "pip", look.symbol));
  }
  if (!/^\d+$/.test(rank)) node.classList.add("face");
  if (rank.length > 2) node.classList.add("long");
  node.title = cardTitle(rank, suit);
  node.setAttribute("aria-label", node.title);
  return node;
}

function cardsNode(cards, small, drawn) {
  const row = el("span", small ? "cards small" : "cards");
  (cards || []).forEach((card, i) => row.append(cardNode(card, drawn && drawn[i])));
  return row;
}

function render() {
  const s = page.state;
  document.body.dataset.turn = s.turn;
  document.body.dataset.status = s.status;
  document.body.dataset.phase = (s.view && s.view.phase) || "";
  document.body.dataset.sent = page.sent;
  $("variant").textContent = s.variant;
  $("where").textContent = s.seat === null ? T("watching") : seatName(s.seat);
  $("waiting").hidden = s.status !== "waiting";
  $("table").hidden = s.status === "waiting";
  if (s.problem) notice(s.problem, "error");
  if (s.status === "waiting") renderWaiting(s); else renderTable(s);
}

function renderWaiting(s) {
  $("share-link").value = location.origin + location.pathname;
  const list = $("seat-list");
  list.replaceChildren();
  for (const seat of s.seats) {
    const item = el("li");
    item.append(el("span", "seat-label", T("seat_label", { n: seat.seat + 1 })));
    const invite = sessionStorage.getItem(keyOf("invite"));
    if (seat.kind === "free") {
      if (s.seat === null && (!seat.invited || invite || s.creator)) {
        const button = el("button", "sit", T("take_seat"));
        button.dataset.seat = seat.seat;
        button.onclick = () => send({ type: "sit", seat: seat.seat, name: $("name").value, invite: invite || undefined });
        item.append(button);
      } else {
        item.append(el("span", "muted", seat.invited ? T("kept") : T("free")));
      }
      if (s.creator) {
        const button = el("button", "invite", seat.invited ? T("new_invite") : T("invite"));
        button.dataset.seat = seat.seat;
        button.onclick = () => send({ type: "invite", seat: seat.seat });
        item.append(button);
        if (seat.invited && page.invites[seat.seat]) {
          const link = el("input", "invite-link");
          link.readOnly = true;
          link.value = page.invites[seat.seat];
          item.append(link);
        }
      }
    } else {
      item.append(el("strong", null, seatName(seat.seat)));
      item.append(el("span", seat.connected ? "dot on" : "dot", ""));
      if (s.creator) {
        const button = el("button", "remove", T("remove"));
        button.dataset.seat = seat.seat;
        button.onclick = () => send({ type: "remove", seat: seat.seat });
        item.append(button);
      }
    }
    list.append(item);
  }
  $("list-row").hidden = !s.creator;
  $("listed").checked = !!s.listed;
  $("name-row").hidden = s.seat !== null;
  $("start-row").hidden = !s.creator;
  $("waiting-note").textContent = s.creator ? "" : T("waiting_note");
}

function renderTable(s) {
  const v = s.view || {};
  const yours = s.status === "playing" && s.seat !== null && s.to_act === s.seat && !s.forced;
  document.title = `${yours ? T("your_turn_tab") : ""}${s.variant}`;      // a tab in the background says so
  renderFacts(s, v);
  renderRing(s, v);
  renderMe(s, v);
  renderScores(s, v);
  renderLog();
  renderResult(s);
}

// -- the table: the seats around it, what each played in front of it --------------------------

function bottomSeat(s) { return s.seat === null ? 0 : s.seat; }

function around(s) {
  // the seats in table order from the bottom one, each with its place on the table's edge:
  // x, y in [-1, 1] (the bottom seat at (0, 1), the next ones going left, across, right)
  const n = s.players;
  const out = [];
  for (let k = 0; k < n; k++) {
    const angle = (2 * Math.PI * k) / n;
    out.push({ seat: (bottomSeat(s) + k) % n, x: -Math.sin(angle), y: Math.cos(angle), k });
  }
  return out;
}

function placeOnEdge(node, x, y) {
  // a seat's box against the table's edge: never past it, whatever its size
  node.style.left = `${50 + 50 * x}%`;
  node.style.top = `${50 + 50 * y}%`;
  node.style.transform = `translate(${-50 - 50 * x}%, ${-50 - 50 * y}%)`;
}

function seatBox(s, v, seat) {
  const box = el("div", "seat");
  box.dataset.seat = seat;
  if (s.to_act === seat) box.classList.add("to-act");
  const info = s.seats[seat];
  const head = el("div", "seat-head");
  head.append(el("strong", "name", seatName(seat)));
  if (info.away) head.append(el("span", "kind", T("away")));
  if (info.kind === "person") head.append(el("span", info.connected ? "dot on" : "dot", ""));
  box.append(head);
  const line = el("div", "seat-line");
  const sizes = v.hand_sizes || [];
  if (sizes[seat] !== undefined && seat !== s.seat) {
    const held = el("span", "held", String(sizes[seat]));
    held.title = T("held", {}, sizes[seat]);
    line.append(held);
  }
  const totals = v.totals || [];
  if (totals[seat] !== undefined) line.append(el("span", "total", T("pts", {}, totals[seat])));
  const t = v.table;
  if (t && (t.tricks || [])[seat] !== undefined) {
    const tricks = t.tricks[seat], points = (t.points || [])[seat] ?? 0;
    const taken = el("span", "taken", T("tricks", {}, tricks));
    taken.title = `${T("tricks_taken", {}, tricks)}, ${T("card_points", {}, points)}`;
    line.append(taken);
  }
  box.append(line);
  const marks = el("div", "marks");
  for (const mark of (s.marks || [])[seat] || []) marks.append(el("span", "mark", mark));
  if (marks.childNodes.length) box.append(marks);
  if (t) {
    const laid = (t.laid || [])[seat] || [];
    if (laid.length && seat !== s.seat) {
      const row = el("div", "laid");
      row.title = T("laid_face_up");
      row.append(cardsNode(laid, true));
      box.append(row);
    }
    const melds = (t.announced || [])[seat] || [];
    if (melds.length) box.append(el("div", "announced", T("announced", { melds: melds.join(", ") })));
  }
  return box;
}

function passedSince(v) {
  // the seats that passed since the trick's last play: the `passes` seats after its player,
  // in the order of play, skipping the seats that hold no card
  const out = new Set();
  if (!v.passes || v.last_player === null || v.last_player === undefined) return out;
  const n = v.players, step = v.direction === -1 ? -1 : 1, sizes = v.hand_sizes || [];
  let seat = v.last_player;
  for (let tries = 0; out.size < v.passes && tries < 2 * n; tries++) {
    seat = (seat + step + n) % n;
    if (seat === v.last_player) break;
    if ((sizes[seat] ?? 1) > 0) out.add(seat);
  }
  return out;
}

function spotFor(s, v, seat) {
  // what the seat put on the table: its card in the trick, its plays in the trick (the last
  // one on top), a pass, its bid in the auction; while the next trick is empty, the last
  // trick, faded, and who took it
  const spot = el("div", "spot");
  spot.dataset.seat = seat;
  const current = v.table ? (v.table.trick || []).length : (v.trick || []).length;
  const last = v.last_trick;
  if (!current && last && (last.plays || []).length && v.phase !== "bidding") {
    const mine = last.plays.filter((p) => p.seat === seat).pop();
    if (mine) { spot.append(cardsNode(mine.cards)); spot.classList.add("last"); }
    if (last.winner === seat) spot.append(el("div", "bubble took", T("takes_trick")));
    return spot;
  }
  if (v.table) {
    const entries = v.table.trick || [];
    const i = entries.findIndex((e) => e.seat === seat);
    if (i >= 0) {
      const row = cardsNode([entries[i].card]);
      spot.append(row);
      spot.classList.add("played");
      if (i === 0) spot.classList.add("lead");
      spot.dataset.order = i + 1;
    }
  } else {
    const plays = v.trick || [];
    let last = -1;
    plays.forEach((e, i) => { if (e.seat === seat) last = i; });
    if (last >= 0) {
      const play = plays[last].play;
      spot.append(cardsNode(play.cards));
      spot.append(el("div", "what", `${play.name}${play.cards.length > 1 || play.rank_name !== rankOf(play.cards[0]) ? ", " + play.rank_name : ""}`));
      spot.classList.add("played", last === plays.length - 1 ? "top" : "under");
    }
    if (passedSince(v).has(seat)) spot.append(el("div", "bubble pass", T("pass")));
  }
  // bids of tricks (a phase of kind bids) stay beside each seat for the whole play: its contract
  const tricksBid = (v.bids || []).length && v.bidder == null && (v.kind === "bids" || v.kind === "tricks");
  if (v.phase === "bidding" || tricksBid || (v.bids || []).length && !(v.trick || []).length && !(v.table && (v.table.trick || []).length) && v.phase !== "play") {
    const said = (v.bids || []).filter((b) => b.seat === seat).pop();
    if (said) spot.append(el("div", said.bid === null ? "bubble pass" : "bubble bid",
      said.bid === null ? T("pass") : said.forced ? T("must_bid", { bid: said.bid }) : T("bids", { bid: said.bid })));
  }
  return spot;
}

function renderRing(s, v) {
  const ring = $("others");
  const centre = $("centre");
  ring.replaceChildren(centre);
  ring.className = `n${s.players}`;
  const spots = [];
  for (const place of around(s)) {
    let box = null;
    if (place.k !== 0 || s.seat === null) {
      box = seatBox(s, v, place.seat);
      placeOnEdge(box, place.x, place.y);
      ring.append(box);
    }
    const spot = spotFor(s, v, place.seat);
    if (spot.childNodes.length) {
      ring.append(spot);
      spots.push([spot, box]);
    }
  }
  const fresh = page.drawnTurn !== s.turn;             // a new decision: what was just laid arrives
  page.drawnTurn = s.turn;
  const latest = v.table ? ((v.table.trick || []).slice(-1)[0] || {}).seat : ((v.trick || []).slice(-1)[0] || {}).seat;
  for (const [spot] of spots) {
    if (fresh && latest !== undefined && Number(spot.dataset.seat) === latest && spot.classList.contains("played")) spot.classList.add("fresh");
  }
  const frame = ring.getBoundingClientRect();
  for (const [spot, box] of spots) placeSpot(spot, box, frame);
  centre.replaceChildren();
  const lead = v.table ? (v.table.trick || []).length === 0 : (v.trick || []).length === 0;
  if (s.status === "playing" && lead && (v.phase === "play" || v.kind === "tricks") && s.to_act !== null) {
    centre.append(el("div", "muted", s.to_act === s.seat ? T("you_lead") : T("leads", { who: seatName(s.to_act) })));
  }
  const trump = v.table && (v.table.trumps || [])[0];
  if (trump && (deckOf().colours || []).includes(trump)) {
    const look = suitLook(trump);
    const sign = el("div", look.wild ? "trump-sign suit wild" : "trump-sign suit", look.symbol);
    sign.style.color = look.ink;
    sign.title = T("trump_title", { trump: colourWord(trump) });
    centre.prepend(sign);
  }
  if (v.phase === "bidding" && v.kind !== "bids") {
    const high = (v.bids || []).filter((b) => b.bid !== null).pop();
    centre.append(el("div", "muted", high ? T("highest_bid", { bid: high.bid }) : T("bidding")));
  }
}

function placeSpot(spot, box, frame) {
  // what a seat played lies in front of it: from its box toward the middle of the table (down
  // from it on a narrow screen), as near as it goes without covering the box; the person's
  // own plays at the bottom, above the hand
  const w = spot.offsetWidth, h = spot.offsetHeight, gap = 6;
  const W = frame.width, H = frame.height;
  const clampX = (x) => Math.min(Math.max(x, w / 2 + 2), W - w / 2 - 2);
  const clampY = (y) => Math.min(Math.max(y, h / 2 + 2), H - h / 2 - 2);
  let x = W / 2, y = H - h / 2 - gap;
  if (box) {
    const r = box.getBoundingClientRect();
    const bx = r.left - frame.left + r.width / 2, by = r.top - frame.top + r.height / 2;
    let dx = W / 2 - bx, dy = H / 2 - by;
    if (W < 600 && Math.abs(dx) > W / 4) { dx = 0; dy = by < H * 0.7 ? 1 : -1; }
    const length = Math.hypot(dx, dy) || 1;
    dx /= length; dy /= length;
    // the least distance along (dx, dy) at which the spot clears the box
    const tx = Math.abs(dx) > 1e-6 ? (r.width / 2 + w / 2 + gap) / Math.abs(dx) : Infinity;
    const ty = Math.abs(dy) > 1e-6 ? (r.height / 2 + h / 2 + gap) / Math.abs(dy) : Infinity;
    const t = Math.min(tx, ty);
    x = bx + dx * t; y = by + dy * t;
  }
  spot.style.left = `${clampX(x)}px`;
  spot.style.top = `${clampY(y)}px`;
  spot.style.transform = "translate(-50%, -50%)";
}

// -- the facts above the table ------------------------------------------------------------------

function factLine(label, value) {
  const item = el("span", "fact");
  item.append(el("span", "label", label + " "));
  if (value instanceof Node) item.append(value); else item.append(el("strong", null, value));
  return item;
}

function endText(end, short) {
  // the configured end: the points that end the game and / or the most rounds
  if (!end) return "";
  const target = end.target !== null && end.target !== undefined ? end.target : null;
  const rounds = end.rounds ? T("rounds", {}, end.rounds) : "";
  if (short) return [target !== null ? T("target_points", {}, target) : "", rounds, !rounds && target === null ? end.when || "" : ""]
    .filter(Boolean).join(T("or"));
  const parts = [];
  if (target !== null) parts.push(T("ends_target", {}, target));
  if (rounds) parts.push(T("ends_after", { rounds }));
  if (!parts.length && end.when) parts.push(T("ends_when", { when: end.when }));
  const winner = end.winner === "lowest" ? T("lowest_wins") : T("highest_wins");
  return T("ends", { parts: parts.join(T("ends_or")), winner });
}

const SHOWN_ELSEWHERE = new Set(["seat", "players", "phase", "round", "dealer", "hand", "face_up", "bids",
  "trick", "last_play", "last_player", "hand_sizes", "totals", "target", "played", "played_by", "taken",
  "passes", "leader", "interrupt", "bid", "nest", "given", "received", "exchange_count", "redeals",
  "cards", "kind", "table", "side", "roles", "others", "direction", "transfers", "last_trick",
  "reversed", "wish", "sitting", "out", "give_to", "unseen", "stock", "drawn_open"]);

function renderFacts(s, v) {
  const facts = $("facts");
  facts.replaceChildren();
  const rounds = s.end && s.end.rounds;
  facts.append(factLine(T("fact_round"), rounds ? T("round_of", { round: v.round ?? "–", rounds }) : (v.round ?? "–")));
  if (s.end) facts.append(factLine(T("fact_game_to"), endText(s.end, true)));
  if (v.phase && v.phase !== "play") facts.append(factLine(T("fact_phase"), phaseWord(v.phase)));
  if (v.bid !== null && v.bid !== undefined) {
    const said = v.bidder !== null && v.bidder !== undefined ? T("bid_by", { bid: v.bid, who: seatName(v.bidder) }) : `${v.bid}`;
    facts.append(factLine(T("fact_bid"), said));
  }
  if (v.face_up && v.face_up.card) {
    const where = v.face_up.seat === null ? T("face_up_nest") : T("face_up_went", { who: seatName(v.face_up.seat) });
    const node = el("span"); node.append(cardsNode([v.face_up.card], true, [v.face_up.drawn]), el("span", null, ` ${where}`));
    facts.append(factLine(T("fact_face_up"), node));
  }
  if (v.redeals) facts.append(factLine(T("fact_redeals"), v.redeals));
  if (v.phase === "exchange" && v.exchange_count) facts.append(factLine(T("fact_exchanged"), v.exchange_count));
  if (v.nest && v.nest.length) facts.append(factLine(T("fact_nest"), cardsNode(v.nest, true)));
  if (v.reversed) facts.append(factLine(T("fact_reversed"), T("reversed_now")));
  if (v.wish !== null && v.wish !== undefined) facts.append(factLine(T("fact_wish"), v.wish));
  if (v.sitting !== null && v.sitting !== undefined) facts.append(factLine(T("fact_sitting"), seatName(v.sitting)));
  if (v.out && v.out.length) facts.append(factLine(T("fact_out"), v.out.map((o) => seatName(o)).join(", ")));
  if (v.unseen) facts.append(factLine(T("fact_unseen"), v.unseen));      // a deal in two parts, before its second
  if (v.stock !== undefined && v.stock !== null) facts.append(factLine(T("fact_stock"), v.stock));   // drawn from after each trick
  for (const [seat, cards] of Object.entries(v.drawn_open || {})) {      // cards another seat drew face up, still held
    facts.append(factLine(T("fact_drawn_open", { who: seatName(Number(seat)) }), cardsNode(cards, true)));
  }
  for (const [name, value] of Object.entries(v)) {      // fields this page does not know: as they are
    if (SHOWN_ELSEWHERE.has(name) || (s.marked_fields || []).includes(name) || value === null || value === false) continue;
    if (typeof value === "object" && !Object.keys(value).length) continue;        // an empty list or map says nothing
    facts.append(factLine(name.replace(/_/g, " "), typeof value === "object" ? JSON.stringify(value) : value));
  }
  if (v.table) renderTrumps(facts, v.table);
}

function renderTrumps(facts, t) {
  // the trumps chosen this round, by whom, and which prevails when layers are stacked
  const chosen = t.chosen || [];
  const layers = (t.trumps || []).filter((x) => x !== null);
  for (const c of chosen) {
    if (c.trump === null) { facts.append(factLine(T("fact_trump_passed"), seatName(c.seat))); continue; }
    const node = trumpNode(c.trump);
    if (layers.length > 1 && c.trump === t.trumps[0]) node.append(T("prevails"));
    if (c.role) facts.append(factLine(T("fact_trump_of", { role: c.role }), node));
    else { node.append(el("span", "label", T("chosen_by", { who: seatName(c.seat) }))); facts.append(factLine(T("fact_trump"), node)); }
  }
  if (!chosen.length && layers.length) {
    const node = el("span");
    layers.forEach((x, i) => { if (i) node.append(", "); node.append(trumpNode(x)); });
    facts.append(factLine(T("fact_trump"), node));
  }
}

function laidMarks(hand, laid) {
  // the indexes of the hand's cards laid face up (twins: as many as laid)
  const left = [...laid];
  const out = new Set();
  hand.forEach((card, i) => {
    const j = left.indexOf(card);
    if (j >= 0) { out.add(i); left.splice(j, 1); }
  });
  return out;
}

function handGroups(hand, bySuit) {
  // the hand's cards in groups: of one rank (overlapped, climbing), or of one suit in a
  // trick-taking round (side by side, the suits apart)
  const key = bySuit ? suitOf : rankOf;
  const groups = [];
  const order = hand.map((card, index) => index);
  if (bySuit) {
    const colours = deckOf().colours || [];
    const place = (card) => { const i = colours.indexOf(suitOf(card)); return i < 0 ? colours.length : i; };
    order.sort((i, j) => place(hand[i]) - place(hand[j]) || i - j);
  }
  for (const index of order) {
    const last = groups[groups.length - 1];
    if (last && key(hand[last[0]]) === key(hand[index])) last.push(index); else groups.push([index]);
  }
  return groups;
}

function selectedCards(hand) {
  return [...page.selected].map((i) => hand[i]).sort();
}

function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = [...a].sort(), y = [...b].sort();
  return x.every((card, i) => card === y[i]);
}

function drawnHand(v, hand) {
  // the very cards of a hand named by rank (a file whose rules read no colours): `cards`, when
  // it names the same ranks in the same order
  const cards = v.cards || [];
  if (cards.length !== hand.length || hand.some((c, i) => c.includes("/") || rankOf(cards[i]) !== c)) return hand;
  return cards;
}

function renderMe(s, v) {
  const me = $("me");
  me.hidden = s.seat === null;
  if (s.seat === null) return;
  const mine = $("my-seat");
  mine.replaceChildren(myLine(s, v));
  const hand = v.hand || [];
  const drawn = drawnHand(v, hand);
  const legal = s.to_act === s.seat ? s.legal : [];
  const cardMoves = legal.filter((m) => Array.isArray(m.cards));
  const plays = s.forced ? [] : legal.filter((m) => m.kind === "card" && typeof m.card === "string");
  const usable = new Set(cardMoves.flatMap((m) => m.cards).concat(plays.map((m) => m.card)));
  const laid = v.table ? laidMarks(hand, (v.table.laid || [])[s.seat] || []) : new Set();
  const box = $("hand");
  box.replaceChildren();
  box.classList.toggle("by-suit", !!v.table);
  for (const group of handGroups(drawn, !!v.table)) {
    const g = el("span", "group");
    for (const index of group) {
      const node = cardNode(hand[index], drawn[index]);
      node.dataset.index = index;
      node.tabIndex = 0;
      if (page.selected.has(index)) node.classList.add("selected");
      if ((cardMoves.length || plays.length) && !usable.has(hand[index])) node.classList.add("dim");
      const play = plays.find((m) => m.card === hand[index]);
      if (play) node.classList.add("playable");
      if (laid.has(index)) { node.classList.add("laid"); node.title += T("laid_title"); }
      const pick = play ? () => choose(play) : () => toggle(index);   // a card play: one click
      node.onclick = pick;
      node.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } };
      g.append(node);
    }
    box.append(g);
  }
  if (!hand.length) box.append(el("span", "muted", T("no_cards")));
  renderActions(s, v, legal, cardMoves, hand);
}

function myLine(s, v) {
  // the person's own seat: name, marks, points, tricks, announcements
  const line = el("div", "seat mine");
  line.dataset.seat = s.seat;
  if (s.to_act === s.seat) line.classList.add("to-act");
  line.append(el("strong", "name", seatName(s.seat)));
  for (const mark of (s.marks || [])[s.seat] || []) line.append(el("span", "mark", mark));
  const totals = v.totals || [];
  if (totals[s.seat] !== undefined) line.append(el("span", "total", T("points", {}, totals[s.seat])));
  const t = v.table;
  if (t && (t.tricks || [])[s.seat] !== undefined) {
    const tricks = t.tricks[s.seat], points = (t.points || [])[s.seat] ?? 0;
    line.append(el("span", "taken", `${T("tricks", {}, tricks)}, ${T("card_points", {}, points)}`));
  }
  const melds = t ? (t.announced || [])[s.seat] || [] : [];
  if (melds.length) line.append(el("span", "announced", T("announced", { melds: melds.join(", ") })));
  if (v.given && v.given.length) line.append(factLine(T("you_gave"), cardsNode(v.given, true)));
  if (v.received && v.received.length) line.append(factLine(T("you_received"), cardsNode(v.received, true)));
  return line;
}

function toggle(index) {
  if (page.selected.has(index)) page.selected.delete(index); else page.selected.add(index);
  render();
}

function choose(move) {
  if (page.sent) return;
  page.sent = true;
  const message = { type: "act", turn: page.state.turn, move: move.id };
  if (!send(message)) page.queued = message;      // disconnected: sent once connected again
  render();
}

function promptText(s, v, legal) {
  if (s.status === "over") return T("prompt_over");
  if (s.to_act !== s.seat) {
    return s.to_act === null ? "" : T("waiting_for", { who: seatName(s.to_act) });
  }
  if (s.forced) return T("forced", { move: legal[0].label });
  const kinds = new Set(legal.map((m) => m.kind));
  if (kinds.has("bid")) return T("prompt_bid");
  if (kinds.has("give")) {
    const n = legal.find((m) => m.kind === "give").cards.length;
    if (v.give_to !== null && v.give_to !== undefined) return T("prompt_give_to", { who: seatName(v.give_to) }, n);
    return T("prompt_give", {}, n);
  }
  if (kinds.has("wish")) return T("prompt_wish");
  if (kinds.has("trick_to")) return T("prompt_trick_to");
  if (v.interrupt && v.last_play) return T("prompt_interrupt", { name: v.last_play.name, rank: v.last_play.rank_name });
  if (v.last_play) {
    const play = { name: v.last_play.name, rank: v.last_play.rank_name };
    if (v.last_player !== null && v.last_player !== undefined) return T("prompt_beat_whose", { who: seatName(v.last_player), ...play });
    return T("prompt_beat", play);
  }
  if (kinds.has("play")) return T("prompt_lead");
  if (kinds.has("lay")) return T("prompt_lay");
  if (kinds.has("card")) return T("prompt_card");
  if (kinds.has("trump")) return T("prompt_trump");
  if (kinds.has("partner")) return T("prompt_partner");
  return T("prompt_turn");
}

function renderActions(s, v, legal, cardMoves, hand) {
  if (s.forced) cardMoves = [];
  $("prompt").textContent = promptText(s, v, legal);
  $("prompt").className = s.to_act === s.seat && !s.forced ? "yours" : "";
  if (s.forced) legal = [];
  const buttons = $("buttons");
  buttons.replaceChildren();
  const readings = $("readings");
  readings.replaceChildren();
  readings.hidden = true;
  const selection = selectedCards(hand);
  const matching = cardMoves.filter((m) => sameCards(m.cards, selection));
  const cardKinds = [...new Set(cardMoves.map((m) => m.kind))];
  for (const kind of cardKinds) {
    const button = el("button", "primary", (lang.words.buttons || {})[kind] || kind.charAt(0).toUpperCase() + kind.slice(1));
    button.dataset.kind = kind;
    const mine = matching.filter((m) => m.kind === kind);
    button.disabled = page.sent || !mine.length;
    button.onclick = () => {
      if (mine.length === 1) { choose(mine[0]); return; }
      readings.hidden = false;
      readings.replaceChildren(el("span", null, T("several_ways")));
      for (const m of mine) {
        const b = el("button", "reading", m.label);
        b.dataset.move = m.id;
        b.onclick = () => choose(m);
        readings.append(b);
      }
    };
    buttons.append(button);
  }
  if (cardMoves.length) {
    const clear = el("button", null, T("clear"));
    clear.disabled = !page.selected.size;
    clear.onclick = () => { page.selected.clear(); render(); };
    buttons.append(clear);
  }
  const list = $("moves");
  list.replaceChildren();
  const shown = new Set();
  let cardPlays = 0;
  for (const m of legal.filter((x) => !Array.isArray(x.cards))) {
    if (m.kind === "card") {                       // a card of the trick: clicked in the hand, or here
      if (shown.has(m.card)) continue;             // twin cards (two 7/red): one button
      shown.add(m.card);
      const button = el("button", "card-move", m.label);
      button.dataset.card = m.card;
      button.dataset.kind = m.kind;
      button.dataset.move = m.id;
      button.title = cardTitle(rankOf(m.card), suitOf(m.card));
      button.disabled = page.sent;
      button.onclick = () => choose(m);
      const item = el("li", "move");
      item.append(button);
      list.append(item);
      cardPlays++;
      continue;
    }
    const text = m.kind === "pass" && !("trump" in m) ? T("pass_button")
      : m.kind === "partner" ? T("partner_button", { who: seatName(m.partner) })
      : m.kind === "trick_to" ? T("trick_to_button", { who: seatName(m.given_to) }) : m.label;
    const button = el("button", m.kind === "pass" ? "pass" : "", text);
    if (m.kind === "trump" && m.trump) button.replaceChildren(trumpNode(m.trump));
    button.dataset.kind = m.kind;
    button.dataset.move = m.id;
    button.disabled = page.sent;
    button.onclick = () => choose(m);
    buttons.append(button);
  }
  if (page.selected.size && cardMoves.length && !matching.length) {
    buttons.append(el("span", "muted", T("no_move")));
  }
  const box = $("moves-box");
  box.hidden = !cardMoves.length && !cardPlays;
  $("moves-title").textContent = cardPlays ? T("cards_you_may_play", {}, cardPlays) : T("legal_moves_count", {}, cardMoves.length);
  for (const m of cardMoves.slice(0, 300)) {
    const item = el("li", "move", m.label);
    item.dataset.move = m.id;
    item.dataset.cards = m.cards.join(" ");
    item.onclick = () => selectCards(hand, m.cards);
    list.append(item);
  }
}

function selectCards(hand, cards) {
  page.selected.clear();
  for (const card of cards) {
    const index = hand.findIndex((c, i) => c === card && !page.selected.has(i));
    if (index >= 0) page.selected.add(index);
  }
  render();
}

function renderScores(s, v) {
  const table = $("scores");
  table.replaceChildren();
  const totals = v.totals || [];
  for (let seat = 0; seat < s.players; seat++) {
    const row = el("tr", seat === s.seat ? "you" : "");
    row.append(el("td", null, seatName(seat)), el("td", "num", totals[seat] ?? 0));
    table.append(row);
  }
  $("end-rule").textContent = endText(s.end, false);
}

function renderLog() {
  const box = $("log");
  const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 30;
  box.replaceChildren();
  const first = Math.max(0, page.log.length - 400);
  for (const [i, [round, text]] of page.log.slice(first).entries()) {
    if (!text) continue;
    const line = el("div", page.kinds[first + i] === "round" ? "line head" : "line", text);
    if (round !== null && round !== undefined) line.dataset.round = round;
    box.append(line);
  }
  if (atBottom) box.scrollTop = box.scrollHeight;
}

function renderResult(s) {
  const over = s.status === "over";
  $("result").hidden = !over || page.resultClosed;
  if (!over) return;
  const texts = page.log.map((l) => l[1]);
  let end = page.kinds.indexOf("game_end");
  while (end >= 0 && end < texts.length && !texts[end]) end++;         // the game's end begins with a blank line
  if (end >= texts.length) end = -1;
  $("standings").textContent = end >= 0 ? texts.slice(end).join("\n") : "";
  let start = texts.length - 1;
  while (start > 0 && page.kinds[start] !== "round") start--;
  const stop = end >= 0 ? end : texts.length;
  const round = texts.slice(start, stop);
  $("round-points").textContent = resultLines(start, stop).join("\n");
  $("round-log").textContent = round.join("\n").trim();
}

// -- start -------------------------------------------------------------------------------------

async function main() {
  await loadWords();
  $("notice").onclick = () => { $("notice").hidden = true; };     // a click puts a notice away
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)$/);
  if (!match) { showLobby(); return; }
  page.table = match[1];
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("seat")) {            // a seat link: keep its token here, drop it from the address
    localStorage.setItem(keyOf("seat"), fragment.get("seat"));
    history.replaceState(null, "", location.pathname + location.search);
  }
  if (fragment.get("invite")) {          // an invite link: its code takes the seat kept for it
    sessionStorage.setItem(keyOf("invite"), fragment.get("invite"));
    history.replaceState(null, "", location.pathname + location.search);
  }
  $("listed").onchange = () => send({ type: "list", listed: $("listed").checked });
  $("start").onclick = () => send({ type: "start" });
  $("copy-link").onclick = () => { $("share-link").select(); navigator.clipboard?.writeText($("share-link").value); };
  $("close-result").onclick = () => { page.resultClosed = true; render(); };
  $("name").value = localStorage.getItem("chimera.name") || "";
  $("name").onchange = () => localStorage.setItem("chimera.name", $("name").value);
  connect();
  let pending = 0;                         // the seats' places depend on the table's size
  window.addEventListener("resize", () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => { if (page.state && page.state.status !== "waiting") render(); });
  });
}

main();
