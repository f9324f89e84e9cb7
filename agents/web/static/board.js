// The browser board: draws the server's board view as SVG (board_draw.js), sends clicks to
// the engine, shows its messages, what the agent thought of its last turn, the analysis
// overlay and the replay slider. Plain ES module, no dependencies.

import { drawBoard, node } from "/static/board_draw.js";

const pixels = (width) => Math.max(40, Math.min(64, 560 / (width + 2))); // per cell width: small boards larger

const game = document.body.dataset.game;
const $ = (id) => document.getElementById(id);
let session = null; // the live game's token
let current = null; // the view on the board
let replay = null; // {token, positions} while a record is open
let timer = null;
let lastAnalysis = null; // redrawn when the overlay's kind changes

async function call(path, data) {
  const response = await fetch(path, {
    method: data === undefined ? "GET" : "POST",
    headers: { "Content-Type": "application/json" },
    body: data === undefined ? undefined : JSON.stringify(data),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

function say(text, kind = "error") {
  const message = $("message");
  message.textContent = text;
  message.className = kind;
}

// --- drawing ------------------------------------------------------------------------------------
function draw(view) {
  current = view;
  document.body.dataset.views = Number(document.body.dataset.views || 0) + 1;
  const svg = $("board");
  drawBoard(svg, view.board, pixels(view.board.width), clicked);
  node("g", { id: "overlay" }, svg);
  drawButtons(view.board.buttons);
  drawStatus(view);
  drawThinking(view.thinking);
}

function drawButtons(moves) {
  const box = $("turn-buttons");
  box.replaceChildren();
  for (const move of moves) {
    const button = document.createElement("button");
    button.textContent = move.text;
    button.dataset.action = move.action;
    button.className = move.legal ? "legal" : "illegal";
    button.addEventListener("click", () => play(move.action));
    box.appendChild(button);
  }
}

function drawStatus(view) {
  const status = $("status");
  status.replaceChildren();
  const lines = [...view.board.notes];
  if (view.over) lines.unshift(`Game over: ${view.result}`);
  else if (!replay && view.your_turn) lines.unshift(`Your turn (${view.seat_names[view.to_play]})`);
  if (view.seats) {
    view.seats.forEach((spec, seat) => lines.push(`seat ${seat} ${view.seat_names[seat]}: ${spec}; ${view.goals[seat]}`));
  }
  for (const text of lines) {
    const p = document.createElement("p");
    p.textContent = text;
    status.appendChild(p);
  }
  status.dataset.over = view.over;
  status.dataset.result = view.over ? view.result : "";
  const turns = $("turns");
  turns.replaceChildren();
  for (const text of view.turns || []) {
    const item = document.createElement("li");
    item.textContent = text;
    turns.appendChild(item);
  }
}

// What the agent thought at the start of its last turn: its value and planned line, from the
// search it played by (the session sends it with every position; nothing to click).
function drawThinking(thought) {
  const box = $("thinking");
  box.replaceChildren();
  box.dataset.seat = thought ? thought.seat : "";
  box.dataset.pv = thought && thought.pv ? thought.pv.join(" ") : "";
  if (!thought) {
    box.textContent = replay ? "" : "An agent that searches shows here what it thought of its last turn.";
    return;
  }
  const lines = [`${thought.player} (seat ${thought.seat}), at the start of its last turn (${thought.simulations} simulations):`,
    `value for ${thought.to_play}: ${thought.value_text}`,
    `planned line: ${thought.pv.length ? thought.pv.join("  ") : "(none)"}`];
  for (const text of lines) box.appendChild(document.createElement("p")).textContent = text;
}

// --- playing ------------------------------------------------------------------------------------
function clicked(cell) {
  $("picker").hidden = true;
  if (replay) return say("a record is open: use the slider, or go back to the game");
  if (!current || current.over) return say("the game is over: start a new game");
  if (!current.your_turn) return say("it is not your turn");
  if (cell.moves.length === 1) return play(cell.moves[0].action);
  const picker = $("picker");
  picker.replaceChildren();
  for (const move of cell.moves) {
    const button = document.createElement("button");
    button.textContent = move.text;
    button.dataset.action = move.action;
    button.className = move.legal ? "legal" : "illegal";
    button.addEventListener("click", () => { picker.hidden = true; play(move.action); });
    picker.appendChild(button);
  }
  picker.hidden = false;
}

async function sessionCall(path, extra = {}) {
  try {
    const view = await call(path, { session, ...extra });
    say("", "info");
    draw(view);
    schedule();
    return view;
  } catch (error) {
    say(error.message);
    return null;
  }
}

const play = (action) => sessionCall("/api/play", { action });

function readParams() {
  const params = {};
  for (const input of document.querySelectorAll("#params input")) {
    const text = input.value.trim();
    if (text === "") continue;
    params[input.name] = text === "true" ? true : text === "false" ? false : Number.isNaN(Number(text)) ? text : Number(text);
  }
  return params;
}

// While the seats say what the server chose last, a new game seats the person against the
// server's choice for the board (the zoo network where it plays it, else the strongest player
// at hand), which it names; seats the person wrote (or swapped) are kept.
let chosen = ["human", ""];

async function newGame() {
  leaveReplay();
  try {
    const seats = [$("seat0").value, $("seat1").value];
    const request = { game, params: readParams(), seed: Number($("seed").value || 0) };
    if (seats.some((spec, seat) => spec !== chosen[seat])) request.seats = seats;
    const view = await call("/api/new", request);
    if (view.opponent) chosen = [...view.seats];
    showSeats(view);
    $("opponent").textContent = view.opponent ? `Opponent: ${view.opponent}` : "";
    session = view.session;
    $("download").href = `/api/record/${session}`;
    say("", "info");
    draw(view);
    clearAnalysis();
    schedule();
  } catch (error) {
    say(error.message);
  }
}

let analyst = "mcts:200"; // the analysis box's agent, until the person writes another

function showSeats(view) {
  view.seats.forEach((spec, seat) => { $(`seat${seat}`).value = spec; });
  // the analysis asks the agent at the board, where it can show what that agent thinks
  const agent = view.seats.find((spec) => /^(zoo|az|mcts)\b/.test(spec));
  if (agent && $("analyst").value === analyst) $("analyst").value = analyst = agent;
}

function schedule() {
  clearTimeout(timer);
  if (current && current.watching && !current.over && $("auto").checked && !replay) {
    timer = setTimeout(() => sessionCall("/api/step"), 300);
  }
}

// --- analysis -----------------------------------------------------------------------------------
function clearAnalysis() {
  lastAnalysis = null;
  const overlay = $("overlay");
  if (overlay) overlay.replaceChildren();
  $("analysis-summary").replaceChildren();
  $("analysis-moves").replaceChildren();
  for (const g of document.querySelectorAll(".cell")) delete g.dataset.share;
}

function cellOfAction() {
  const map = new Map();
  for (const cell of current.board.cells) for (const move of cell.moves) map.set(move.action, cell);
  return map;
}

async function analyseHere() {
  if (!session || replay) return say("analysis works on the live game (go back to the game)");
  const simulations = $("simulations").value ? Number($("simulations").value) : undefined;
  let answer;
  try {
    answer = await call("/api/analyse", { session, player: $("analyst").value, simulations });
  } catch (error) {
    return say(error.message);
  }
  say("", "info");
  showAnalysis(answer);
}

function showAnalysis(answer) {
  clearAnalysis();
  lastAnalysis = answer;
  const key = answer.kind === "search" && $("overlay-kind").value === "share" ? "share" : answer.kind === "exact" ? "value" : "prior";
  const cells = cellOfAction(), perCell = new Map();
  for (const move of answer.moves) {
    const cell = cells.get(move.action);
    if (!cell) continue;
    const entry = perCell.get(cell) || { share: 0, prior: 0, value: -Infinity };
    entry.share += move.share || 0;
    entry.prior += move.prior || 0;
    if (move.value !== undefined) entry.value = Math.max(entry.value, move.value);
    perCell.set(cell, entry);
  }
  const overlay = $("overlay");
  const amounts = new Map([...perCell].map(([cell, entry]) => [cell, key === "value" ? (entry.value + 1) / 2 : entry[key]]));
  const most = Math.max(1e-9, ...amounts.values());
  for (const [cell, entry] of perCell) {
    const g = document.querySelector(`.cell[data-id="${cell.id}"]`);
    if (g && answer.kind === "search") g.dataset.share = entry.share.toFixed(6);
    const opacity = 0.08 + 0.72 * (key === "value" ? amounts.get(cell) : amounts.get(cell) / most);
    node("circle", { class: "heat", cx: cell.x, cy: cell.y, r: 0.4, "fill-opacity": opacity.toFixed(3) }, overlay);
    const text = key === "value" ? entry.value.toFixed(2) : `${Math.round(100 * entry[key])}%`;
    if (text !== "0%") node("text", { class: "heat-text", x: cell.x, y: cell.y + 0.1 }, overlay).textContent = text;
  }
  (answer.pv_actions || []).forEach((action, index) => {
    const cell = cells.get(action);
    if (cell && index < 6) node("text", { class: "pv-step", x: cell.x - 0.3, y: cell.y - 0.3 }, overlay).textContent = index + 1;
  });
  const summary = $("analysis-summary");
  const lines = [`${answer.kind === "exact" ? "exact values" : answer.kind === "network" ? "raw network" : `search, ${answer.visits} visits`}; ${answer.to_play} to move`];
  if (answer.value_text) lines.push(`value for ${answer.to_play}: ${answer.value_text}`);
  if (answer.values) lines.push(`values per seat: ${answer.values.map((v) => (v === null ? "-" : v.toFixed(3))).join(" / ")}`);
  if (answer.pv) lines.push(`principal variation: ${answer.pv.join(" ")}`);
  for (const text of lines) {
    const p = document.createElement("p");
    p.textContent = text;
    summary.appendChild(p);
  }
  const table = $("analysis-moves");
  const head = table.insertRow();
  for (const name of ["move", "visits", "share", "prior", "value"]) head.appendChild(document.createElement("th")).textContent = name;
  const seat = current.to_play;
  for (const move of answer.moves.slice(0, 40)) {
    const row = table.insertRow();
    row.dataset.action = move.action;
    if (move.share !== undefined) row.dataset.share = move.share;
    const value = move.value !== undefined ? move.value : move.values && seat >= 0 ? move.values[seat] : null;
    const fields = [move.move, move.visits ?? "", move.share !== undefined ? move.share.toFixed(3) : "",
      move.prior !== undefined ? move.prior.toFixed(3) : "", value === null || value === undefined ? "" : value.toFixed(3)];
    for (const text of fields) row.insertCell().textContent = text;
  }
  table.dataset.shareSum = answer.moves.reduce((sum, move) => sum + (move.share || 0), 0).toFixed(6);
}

// --- replay -------------------------------------------------------------------------------------
async function openRecord(text) {
  try {
    const view = await call("/api/replay", { record: text });
    replay = { token: view.replay, positions: view.positions };
    const slider = $("slider");
    slider.max = view.positions - 1;
    slider.value = view.positions - 1;
    clearTimeout(timer);
    clearAnalysis();
    showReplay(view);
    say("", "info");
  } catch (error) {
    say(error.message);
  }
}

function showReplay(view) {
  draw(view);
  const result = view.over ? `: ${view.result}` : "";
  $("replay-status").textContent = `turn ${view.turn} of ${view.turns.length}${result}`;
  $("replay-status").dataset.turn = view.turn;
}

async function moveSlider(turn) {
  if (!replay) return;
  const slider = $("slider");
  turn = Math.max(0, Math.min(Number(slider.max), turn));
  slider.value = turn;
  try {
    showReplay(await call("/api/replay/position", { replay: replay.token, turn }));
  } catch (error) {
    say(error.message);
  }
}

function leaveReplay() {
  replay = null;
  $("replay-status").textContent = "";
}

async function replayGame() {
  if (!session) return;
  const response = await fetch(`/api/record/${session}`);
  const text = await response.text();
  $("record-text").value = text;
  openRecord(text);
}

// --- set-up -------------------------------------------------------------------------------------
// A zoo network plays only the rules and the board sizes it was trained on: the page opens on
// such a board, and while the parameters say another (a size it was not trained on, another
// rule) a button sets them to the network's board.
function offerZooBoard({ board, sizes }) {
  const inputs = [...document.querySelectorAll("#params input")];
  const differs = Object.entries(board).filter(([name, value]) =>
    inputs.some((input) => input.name === name && input.value !== String(value)
      && !(name === "size" && sizes.map(String).includes(input.value))));
  let button = $("zoo-board");
  if (differs.length === 0) {
    if (button) button.remove();
    return;
  }
  if (!button) {
    button = document.createElement("button");
    button.id = "zoo-board";
    button.type = "button";
    button.addEventListener("click", () => {
      for (const input of inputs) if (input.name in board) input.value = String(board[input.name]);
      offerZooBoard({ board, sizes });
    });
    $("params").appendChild(button);
  }
  button.textContent = `zoo's board: ${differs.map(([name, value]) => `${name} ${value}`).join(", ")}`;
}

// The seat's "zoo" option names the sizes its network was trained on (it refuses the others).
const zooLabel = ({ sizes }) => (sizes.length ? `zoo (size ${sizes.join(", ")})` : "zoo");

async function setUp() {
  const info = await call("/api/games");
  const opening = info.games.find((entry) => entry.name === game);
  const params = $("params");
  for (const [name, value] of Object.entries(opening.params)) {
    const label = document.createElement("label");
    label.textContent = `${name} `;
    const input = document.createElement("input");
    input.name = name;
    input.value = value === null ? "" : String(value);
    input.size = 8;
    label.appendChild(input);
    params.appendChild(label);
  }
  const zoo = opening.zoo; // its zoo network's board and sizes, when it has one
  if (zoo) params.addEventListener("input", () => offerZooBoard(zoo));
  const specs = $("specs");
  const options = ["human", ...(zoo ? ["zoo"] : []), "random", "greedy", "mcts:50", "mcts:200", "mcts:1000",
    "oracle", "solver", ...info.checkpoints.map((name) => `az:${name}`)];
  for (const spec of options) specs.appendChild(new Option(spec === "zoo" ? zooLabel(zoo) : spec, spec));
  $("new").addEventListener("click", newGame);
  $("undo").addEventListener("click", () => sessionCall("/api/undo"));
  $("swap").addEventListener("click", async () => {
    const view = await sessionCall("/api/swap");
    if (view) showSeats(view);
  });
  $("step").addEventListener("click", () => sessionCall("/api/step"));
  $("auto").addEventListener("change", schedule);
  $("analyse").addEventListener("click", analyseHere);
  $("clear").addEventListener("click", clearAnalysis);
  $("overlay-kind").addEventListener("change", () => lastAnalysis && showAnalysis(lastAnalysis));
  $("open-record").addEventListener("click", () => openRecord($("record-text").value));
  $("record-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) {
      $("record-text").value = await file.text();
      openRecord($("record-text").value);
    }
  });
  $("replay-game").addEventListener("click", replayGame);
  $("leave-replay").addEventListener("click", async () => {
    leaveReplay();
    if (session) await sessionCall("/api/view");
  });
  $("slider").addEventListener("input", (event) => moveSlider(Number(event.target.value)));
  $("back").addEventListener("click", () => moveSlider(Number($("slider").value) - 1));
  $("forward").addEventListener("click", () => moveSlider(Number($("slider").value) + 1));
  await newGame();
  document.body.dataset.ready = "true";
}

setUp();
