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
  selected: new Set(),  // indexes of the selected cards in the hand
  sent: false,          // a move was sent for the current decision
  queued: null,         // a move chosen while disconnected: sent after reconnecting, if still current
  reconnected: false,   // welcomed again: the next state says whether a move is still awaited
  retry: 500,
  resultClosed: false,
  invites: {},          // seat -> the invite link this page's creator made for it
};

function keyOf(kind) { return `chimera.${kind}.${page.table}`; }

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
    const answer = await fetch("/api/tables", { method: "POST" });
    const data = await answer.json();
    if (!answer.ok) { notice(data.error || "the table could not be opened", "error"); return; }
    localStorage.setItem(`chimera.creator.${data.table}`, data.creator);
    location.href = data.url;
  };
  const answer = await fetch("/api/tables");
  const data = await answer.json();
  $("variant").textContent = data.variant;
  const list = $("open-tables");
  if (data.tables.length) list.replaceChildren();
  for (const t of data.tables) {
    const item = el("li");
    const link = el("a", null, `table ${t.table}`);
    link.href = `/t/${t.table}`;
    const free = t.seats.filter((s) => s.kind === "free").length;
    item.append(link, el("span", "muted", ` ${t.status}` + (t.status === "waiting" ? `, ${free} free seat${free === 1 ? "" : "s"}` : "")));
    list.append(item);
  }
}

// -- the connection ----------------------------------------------------------------------------

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${page.table}`);
  page.socket = socket;
  socket.onopen = () => {
    page.retry = 500;
    $("connection").textContent = "connected";
    $("connection").className = "pill ok";
    socket.send(JSON.stringify({
      type: "hello",
      token: localStorage.getItem(keyOf("seat")) || undefined,
      creator: localStorage.getItem(keyOf("creator")) || undefined,
    }));
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    $("connection").textContent = "reconnecting…";
    $("connection").className = "pill bad";
    if (event.code === 4404) { $("connection").textContent = "no such table"; return; }
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
    $("connection").textContent = "resuming…";
    notice(message.reason, "ok");
  } else if (message.type === "invited") {
    page.invites[message.seat] = location.origin + message.url;
    notice(`Send this link to the person you invite to seat ${message.seat}: only it takes that seat.`, "ok");
    if (page.state) render();
  } else if (message.type === "removed") {
    localStorage.removeItem(keyOf("seat"));
    notice(message.reason, "error");
  } else if (message.type === "seated") {
    sessionStorage.removeItem(keyOf("invite"));
    localStorage.setItem(keyOf("seat"), message.token);
    notice(`You hold seat ${message.seat}. This browser keeps your seat; reload to come back to it.`, "ok");
  } else if (message.type === "welcome") {
    if (message.seat === null) localStorage.removeItem(keyOf("seat"));
    page.reconnected = true;
    $("connection").textContent = "connected";       // after "resuming…"
  } else if (message.type === "state") {
    if (message.log.from === 0) page.log = [];
    if (message.log.from === page.log.length) {
      page.log.push(...message.log.lines);
      if (message.log.from > 0 && message.status !== "over") roundResult(message.log.lines);
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

// the first line of a round's result in the log: who went out first (climbing), a round nobody
// bid in (void), or the tricks each seat took (trick-taking)
const ROUND_RESULT = / is out first|^\s*everyone passed: the round is void|^\s*tricks taken:/;

function roundResult(lines) {
  // a round just ended: show its result (the log's lines from who went out to the totals) for a while
  const texts = lines.map((l) => l[1] || "");
  const end = texts.findIndex((t) => t.trim().startsWith("totals:"));
  if (end < 0) return;
  let start = end;
  while (start > 0 && !ROUND_RESULT.test(texts[start])) start--;
  notice(texts.slice(start, end + 1).map((t) => t.trim()).join("\n"), "ok round", 12000);
}

// -- drawing -----------------------------------------------------------------------------------

function seatName(seat) {
  const s = page.state.seats[seat];
  const you = seat === page.state.seat ? " (you)" : "";
  return `${s.name || "seat " + seat}${you}`;
}

function rankOf(card) { return String(card).split("/")[0]; }

// colours whose own ink would not read on a white card, and suits named by words
const INK = { yellow: "#b08900", white: "#475569", hearts: "#c0262d", diamonds: "#c0262d",
  spades: "#111827", clubs: "#111827" };

function trumpWord(trump) { return trump === null ? "passes the choice to the partner" : trump === "none" ? "no trump" : trump; }

function cardNode(card) {
  const [rank, colour] = String(card).split("/");
  const node = el("span", "card");
  node.dataset.card = card;
  node.append(el("span", "rank", rank));
  if (colour) { node.append(el("span", "colour", colour)); node.style.color = INK[colour] || colour; }
  if (["H", "P", "C"].includes(rank)) node.classList.add("face");
  return node;
}

function cardsNode(cards, small) {
  const row = el("span", small ? "cards small" : "cards");
  for (const card of cards || []) row.append(cardNode(card));
  return row;
}

function render() {
  const s = page.state;
  document.body.dataset.turn = s.turn;
  document.body.dataset.status = s.status;
  document.body.dataset.phase = (s.view && s.view.phase) || "";
  document.body.dataset.sent = page.sent;
  $("variant").textContent = s.variant;
  $("where").textContent = `table ${s.table}` + (s.seat === null ? " · watching" : ` · seat ${s.seat}`);
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
    item.append(el("span", "seat-label", `seat ${seat.seat}: `));
    const invite = sessionStorage.getItem(keyOf("invite"));
    if (seat.kind === "free") {
      if (s.seat === null && (!seat.invited || invite || s.creator)) {
        const button = el("button", "sit", "take this seat");
        button.dataset.seat = seat.seat;
        button.onclick = () => send({ type: "sit", seat: seat.seat, name: $("name").value, invite: invite || undefined });
        item.append(button);
      } else {
        item.append(el("span", "muted", seat.invited ? "kept for an invited person" : "free"));
      }
      if (s.creator) {
        const button = el("button", "invite", seat.invited ? "new invite link" : "invite");
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
        const button = el("button", "remove", "remove");
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
  $("waiting-note").textContent = s.creator ? "" :
    "The game starts when the table's creator starts it, or when every seat is taken.";
}

function renderTable(s) {
  const v = s.view || {};
  renderOthers(s, v);
  renderCentre(s, v);
  renderMe(s, v);
  renderScores(s, v);
  renderLog();
  renderResult(s);
}

function lastActs(v) {
  // what each seat did in this trick: its plays, and "pass" for the passes after the last play
  const acts = {};
  for (const entry of v.trick || []) acts[entry.seat] = entry.play;
  return acts;
}

function seatBox(s, v, seat) {
  const box = el("div", "seat");
  box.dataset.seat = seat;
  if (s.to_act === seat) box.classList.add("to-act");
  const head = el("div", "seat-head");
  head.append(el("strong", null, seatName(seat)));
  const kind = s.seats[seat].kind;
  const away = s.seats[seat].away;
  head.append(el("span", "kind", kind === "computer" ? "computer" : away ? "away: a computer plays" : kind === "person" ? "" : kind));
  if (kind === "person") head.append(el("span", s.seats[seat].connected ? "dot on" : "dot", ""));
  box.append(head);
  const marks = el("div", "marks");
  for (const mark of (s.marks || [])[seat] || []) marks.append(el("span", "mark", mark));
  if (s.to_act === seat) marks.append(el("span", "mark turn", "to play"));
  box.append(marks);
  const sizes = v.hand_sizes || [];
  if (sizes[seat] !== undefined && seat !== s.seat) {
    const backs = el("div", "backs");
    for (let i = 0; i < Math.min(sizes[seat], 20); i++) backs.append(el("span", "back"));
    backs.append(el("span", "count", `${sizes[seat]} card${sizes[seat] === 1 ? "" : "s"}`));
    box.append(backs);
  }
  const totals = v.totals || [];
  if (totals[seat] !== undefined) box.append(el("div", "total", `${totals[seat]} points`));
  if (v.table) trickSeat(box, v.table, seat);
  const play = lastActs(v)[seat];
  if (play) {
    const line = el("div", "played");
    line.append(cardsNode(play.cards, true), el("span", "muted", ` ${play.name}`));
    box.append(line);
  }
  return box;
}

function trickSeat(box, t, seat) {
  // a trick-taking round: the cards this seat laid face up and still holds, its card in this
  // trick, the tricks and card points it took, its announcements
  const laid = (t.laid || [])[seat] || [];
  if (laid.length) {
    const line = el("div", "laid");
    line.append(el("span", "muted", "laid face up "), cardsNode(laid, true));
    box.append(line);
  }
  const mine = (t.trick || []).find((entry) => entry.seat === seat);
  if (mine) {
    const line = el("div", "played");
    line.append(el("span", "muted", "plays "), cardsNode([mine.card], true));
    box.append(line);
  }
  const tricks = (t.tricks || [])[seat], points = (t.points || [])[seat];
  if (tricks !== undefined) {
    box.append(el("div", "taken", `${tricks} trick${tricks === 1 ? "" : "s"} taken, ${points ?? 0} card point${points === 1 ? "" : "s"}`));
  }
  const melds = (t.announced || [])[seat] || [];
  if (melds.length) box.append(el("div", "announced", `announced: ${melds.join(", ")}`));
}

function renderOthers(s, v) {
  const others = $("others");
  others.replaceChildren();
  const n = s.players;
  const from = s.seat === null ? 0 : s.seat + 1;
  const count = s.seat === null ? n : n - 1;
  for (let i = 0; i < count; i++) others.append(seatBox(s, v, (from + i) % n));
}

function factLine(label, value) {
  const item = el("span", "fact");
  item.append(el("span", "label", label + " "));
  if (value instanceof Node) item.append(value); else item.append(el("strong", null, value));
  return item;
}

const SHOWN_ELSEWHERE = new Set(["seat", "players", "phase", "round", "dealer", "hand", "face_up", "bids",
  "trick", "last_play", "last_player", "hand_sizes", "totals", "target", "played", "played_by", "taken",
  "passes", "leader", "interrupt", "bid", "nest", "given", "received", "exchange_count", "redeals",
  "cards", "kind", "table", "side", "roles", "others", "direction", "transfers"]);

function renderCentre(s, v) {
  const facts = $("facts");
  facts.replaceChildren();
  facts.append(factLine("round", v.round ?? "–"), factLine("phase", v.phase ?? "–"));
  if (v.target !== undefined) facts.append(factLine("target", v.target));
  if (v.bid !== null && v.bid !== undefined) facts.append(factLine("bid", v.bid));
  if (v.face_up && v.face_up.card) {
    const where = v.face_up.seat === null ? "stays in the nest" : `went to ${seatName(v.face_up.seat)}`;
    const node = el("span"); node.append(cardsNode([v.face_up.card], true), el("span", null, ` ${where}`));
    facts.append(factLine("face-up card", node));
  }
  if (v.redeals) facts.append(factLine("redeals", v.redeals));
  if (v.phase === "exchange" && v.exchange_count) facts.append(factLine("cards exchanged", v.exchange_count));
  if (v.nest) facts.append(factLine("nest", cardsNode(v.nest, true)));
  if (v.given) facts.append(factLine("you gave", cardsNode(v.given, true)));
  if (v.received) facts.append(factLine("you received", cardsNode(v.received, true)));
  for (const [name, value] of Object.entries(v)) {      // fields this page does not know: as they are
    if (SHOWN_ELSEWHERE.has(name) || (s.marked_fields || []).includes(name) || value === null || value === false) continue;
    facts.append(factLine(name.replace(/_/g, " "), typeof value === "object" ? JSON.stringify(value) : value));
  }
  const bidding = v.phase === "bidding";
  $("bidding").hidden = !bidding;
  const bids = $("bids");
  bids.replaceChildren();
  for (const b of v.bids || []) {
    const said = b.bid === null ? "passes" : b.forced ? `must bid ${b.bid}` : `bids ${b.bid}`;
    bids.append(el("li", null, `${seatName(b.seat)} ${said}`));
  }
  if (!(v.bids || []).length) bids.append(el("li", "muted", "nobody has spoken yet"));
  if (v.table) renderTrumps(facts, v.table);
  if (v.table) { renderTrickCards(s, v); return; }
  const trickShown = v.phase === "play" || (v.trick || []).length > 0;
  $("trick-area").hidden = !trickShown;
  const trick = $("trick");
  trick.replaceChildren();
  const plays = v.trick || [];
  plays.forEach((entry, i) => {
    const item = el("li", i === plays.length - 1 ? "top" : "");
    item.append(el("span", "who", seatName(entry.seat)), cardsNode(entry.play.cards),
      el("span", "what", `${entry.play.name}, rank ${entry.play.rank_name}`));
    trick.append(item);
  });
  if (v.passes) trick.append(el("li", "muted", `then ${v.passes} pass${v.passes === 1 ? "" : "es"}`));
  if (!plays.length) {
    const leader = v.leader ?? s.to_act;
    trick.append(el("li", "muted", leader === null || leader === undefined ? "" : `${seatName(leader)} leads`));
  }
}

function renderTrumps(facts, t) {
  // the trumps chosen this round, by whom, and which prevails when layers are stacked
  const chosen = t.chosen || [];
  const layers = (t.trumps || []).filter((x) => x !== null);
  for (const c of chosen) {
    const who = c.role || seatName(c.seat);
    const prevails = layers.length > 1 && c.trump !== null && c.trump === t.trumps[0] ? " (prevails)" : "";
    facts.append(factLine(c.trump === null ? who : `trump of the ${who}`, trumpWord(c.trump) + prevails));
  }
  if (!chosen.length && layers.length) facts.append(factLine("trump", layers.map(trumpWord).join(", ")));
}

function renderTrickCards(s, v) {
  // a trick-taking round: the cards of the trick in progress, in the order played
  const t = v.table;
  const plays = t.trick || [];
  $("trick-area").hidden = !(v.kind === "tricks" || plays.length);
  const trick = $("trick");
  trick.replaceChildren();
  for (const entry of plays) {
    const item = el("li", "trick-card");
    item.dataset.seat = entry.seat;
    item.append(el("span", "who", seatName(entry.seat)), cardsNode([entry.card]));
    trick.append(item);
  }
  if (!plays.length && s.to_act !== null && s.to_act !== undefined) trick.append(el("li", "muted", `${seatName(s.to_act)} leads`));
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

function handGroups(hand) {
  const groups = [];
  hand.forEach((card, index) => {
    const last = groups[groups.length - 1];
    if (last && rankOf(hand[last[0]]) === rankOf(card)) last.push(index); else groups.push([index]);
  });
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

function renderMe(s, v) {
  const me = $("me");
  me.hidden = s.seat === null;
  if (s.seat === null) return;
  const mine = $("my-seat");
  mine.replaceChildren(seatBox(s, v, s.seat));
  const hand = v.hand || [];
  const legal = s.to_act === s.seat ? s.legal : [];
  const cardMoves = legal.filter((m) => Array.isArray(m.cards));
  const plays = s.forced ? [] : legal.filter((m) => m.kind === "card" && typeof m.card === "string");
  const usable = new Set(cardMoves.flatMap((m) => m.cards).concat(plays.map((m) => m.card)));
  const laid = v.table ? laidMarks(hand, (v.table.laid || [])[s.seat] || []) : new Set();
  const box = $("hand");
  box.replaceChildren();
  for (const group of handGroups(hand)) {
    const g = el("span", "group");
    for (const index of group) {
      const node = cardNode(hand[index]);
      node.dataset.index = index;
      node.tabIndex = 0;
      if (page.selected.has(index)) node.classList.add("selected");
      if ((cardMoves.length || plays.length) && !usable.has(hand[index])) node.classList.add("dim");
      if (laid.has(index)) { node.classList.add("laid"); node.title = "laid face up: every seat sees it"; }
      const play = plays.find((m) => m.card === hand[index]);
      const pick = play ? () => choose(play) : () => toggle(index);   // a card play: one click
      node.onclick = pick;
      node.onkeydown = (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } };
      g.append(node);
    }
    box.append(g);
  }
  if (!hand.length) box.append(el("span", "muted", "no cards in hand"));
  renderActions(s, v, legal, cardMoves, hand);
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
  if (s.status === "over") return "The game is over.";
  if (s.to_act !== s.seat) {
    return s.to_act === null ? "" : `Waiting for ${seatName(s.to_act)}…`;
  }
  if (s.forced) return `No other choice than ${legal[0].label}: done for you…`;
  const kinds = new Set(legal.map((m) => m.kind));
  if (kinds.has("bid")) return "Your bid: choose a level, or pass.";
  if (kinds.has("give")) {
    const n = legal.find((m) => m.kind === "give").cards.length;
    return `Choose ${n} card${n === 1 ? "" : "s"} to give, then press Give.`;
  }
  if (v.interrupt && v.last_play) return `You may play out of turn on ${v.last_play.cards.join(" ")}, or pass.`;
  if (v.last_play) return `Beat ${v.last_play.cards.join(" ")} (${v.last_play.name}), or pass.`;
  if (kinds.has("play")) return "Your lead: select cards, then press Play.";
  if (kinds.has("lay")) return "Lay cards face up: select them, then press Lay; or pass.";
  if (kinds.has("card")) return "Your card: click it in your hand or below.";
  if (kinds.has("trump")) return "Choose the trump.";
  if (kinds.has("partner")) return "Name your partner.";
  return "Your turn.";
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
    const button = el("button", "primary", kind === "give" ? "Give" : kind.charAt(0).toUpperCase() + kind.slice(1));
    button.dataset.kind = kind;
    const mine = matching.filter((m) => m.kind === kind);
    button.disabled = page.sent || !mine.length;
    button.onclick = () => {
      if (mine.length === 1) { choose(mine[0]); return; }
      readings.hidden = false;
      readings.replaceChildren(el("span", null, "These cards can be played several ways: "));
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
    const clear = el("button", null, "Clear");
    clear.disabled = !page.selected.size;
    clear.onclick = () => { page.selected.clear(); render(); };
    buttons.append(clear);
  }
  const shown = new Set();
  for (const m of legal.filter((x) => !Array.isArray(x.cards))) {
    if (m.kind === "card") {                       // twin cards (two 7/red): one button
      if (shown.has(m.card)) continue;
      shown.add(m.card);
    }
    const text = m.kind === "pass" && m.label === "pass" ? "Pass"
      : m.kind === "partner" ? `partner: ${seatName(m.partner)}` : m.label;
    const button = el("button", m.kind === "pass" ? "pass" : m.kind === "card" ? "card-move" : "", text);
    if (m.kind === "card") button.dataset.card = m.card;
    button.dataset.kind = m.kind;
    button.dataset.move = m.id;
    button.disabled = page.sent;
    button.onclick = () => choose(m);
    buttons.append(button);
  }
  if (page.selected.size && cardMoves.length && !matching.length) {
    buttons.append(el("span", "muted", " no legal move with exactly these cards"));
  }
  const box = $("moves-box");
  box.hidden = !cardMoves.length;
  $("moves-title").textContent = `Legal moves (${cardMoves.length})`;
  const list = $("moves");
  list.replaceChildren();
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
    const row = el("tr");
    row.append(el("td", null, seatName(seat)), el("td", "num", totals[seat] ?? 0));
    table.append(row);
  }
  if (v.target !== undefined) {
    const row = el("tr", "muted");
    row.append(el("td", null, "target"), el("td", "num", v.target));
    table.append(row);
  }
}

function renderLog() {
  const box = $("log");
  const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 30;
  box.replaceChildren();
  for (const [round, text] of page.log.slice(-400)) {
    if (!text) continue;
    const line = el("div", /^Round \d+/.test(text) ? "line head" : "line", text);
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
  const end = texts.lastIndexOf(texts.find((t) => t.startsWith("Game over")));
  $("standings").textContent = end >= 0 ? texts.slice(end).join("\n") : "";
  let start = texts.length - 1;
  while (start > 0 && !/^Round \d+/.test(texts[start])) start--;
  const round = texts.slice(start, end >= 0 ? end : texts.length);
  const out = round.findIndex((t) => ROUND_RESULT.test(t));
  const totals = round.findIndex((t) => t.trim().startsWith("totals:"));
  $("round-points").textContent = out >= 0 && totals >= out ? round.slice(out, totals + 1).map((t) => t.trim()).join("\n") : "";
  $("round-log").textContent = round.join("\n").trim();
}

// -- start -------------------------------------------------------------------------------------

function main() {
  const match = location.pathname.match(/^\/t\/([A-Za-z0-9_-]+)$/);
  if (!match) { showLobby(); return; }
  page.table = match[1];
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("seat")) {            // a seat link: keep its token here, drop it from the address
    localStorage.setItem(keyOf("seat"), fragment.get("seat"));
    history.replaceState(null, "", location.pathname);
  }
  if (fragment.get("invite")) {          // an invite link: its code takes the seat kept for it
    sessionStorage.setItem(keyOf("invite"), fragment.get("invite"));
    history.replaceState(null, "", location.pathname);
  }
  $("listed").onchange = () => send({ type: "list", listed: $("listed").checked });
  $("start").onclick = () => send({ type: "start" });
  $("copy-link").onclick = () => { $("share-link").select(); navigator.clipboard?.writeText($("share-link").value); };
  $("close-result").onclick = () => { page.resultClosed = true; render(); };
  $("name").value = localStorage.getItem("chimera.name") || "";
  $("name").onchange = () => localStorage.setItem("chimera.name", $("name").value);
  connect();
}

main();
