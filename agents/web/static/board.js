// The browser board: draws the server's board view as SVG (one <g class="cell"> per cell with
// data-cell, data-owner, data-id, data-legal), sends clicks to the engine, shows its messages,
// the analysis overlay and the replay slider. Plain ES module, no dependencies.

const SVG = "http://www.w3.org/2000/svg";
const STONES = { black: "#191919", white: "#f5f5f5", blue: "#285ac8", neutral: "#969696" };
const HEX_R = 1 / Math.sqrt(3);
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

function node(name, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}

function hexagon(x, y) {
  const w = 0.5, r = HEX_R;
  return [[w, -r / 2], [0, -r], [-w, -r / 2], [-w, r / 2], [0, r], [w, r / 2]]
    .map(([dx, dy]) => `${(x + dx).toFixed(3)},${(y + dy).toFixed(3)}`).join(" ");
}

function dark(colour) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b < 150;
}

function textColour(cell) {
  if (cell.owner) return dark(STONES[cell.owner]) ? "#ffffff" : "#111111";
  if (cell.tags.includes("chosen")) return "#c81e1e";
  if (cell.tags.includes("dead")) return dark(cell.fill) ? "#ffc8c8" : "#a01010";
  return dark(cell.fill) ? "#ffffff" : "#111111";
}

// --- drawing ------------------------------------------------------------------------------------
function draw(view) {
  current = view;
  document.body.dataset.views = Number(document.body.dataset.views || 0) + 1;
  const board = view.board, svg = $("board");
  svg.replaceChildren();
  svg.setAttribute("viewBox", `-1 -1 ${board.width + 2} ${board.height + 2}`);
  const px = pixels(board.width);
  svg.setAttribute("width", Math.round((board.width + 2) * px));
  svg.setAttribute("height", Math.round((board.height + 2) * px));
  for (const line of board.lines) {
    node("line", { x1: line.x1, y1: line.y1, x2: line.x2, y2: line.y2, stroke: line.colour,
      "stroke-width": line.width, "stroke-linecap": "round" }, svg);
  }
  const cells = node("g", { id: "cells" }, svg);
  for (const cell of board.cells) {
    const legal = cell.moves.some((move) => move.legal);
    const g = node("g", { class: "cell", "data-cell": cell.name, "data-id": cell.id, "data-owner": cell.owner,
      "data-tags": cell.tags.join(" "), "data-legal": legal }, cells);
    const title = node("title", {}, g);
    title.textContent = cell.name + (cell.owner ? ` (${cell.owner})` : "");
    if (cell.shape === "hex") node("polygon", { class: "ground", points: hexagon(cell.x, cell.y), fill: cell.fill }, g);
    else node("rect", { class: "ground", x: cell.x - 0.5, y: cell.y - 0.5, width: 1, height: 1, fill: cell.fill }, g);
    if (cell.owner) node("circle", { class: "stone", cx: cell.x, cy: cell.y, r: 0.36, fill: STONES[cell.owner] }, g);
    if (cell.text) {
      const mark = node("text", { class: "mark", x: cell.x, y: cell.y, fill: textColour(cell) }, g);
      if (cell.tags.includes("given")) mark.setAttribute("font-weight", "bold");
      mark.textContent = cell.text;
    }
    g.addEventListener("click", () => clicked(cell));
  }
  for (const label of board.labels) {
    node("text", { class: "label", x: label.x, y: label.y }, svg).textContent = label.text;
  }
  node("g", { id: "overlay" }, svg);
  drawButtons(board.buttons);
  drawStatus(view);
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

async function newGame() {
  leaveReplay();
  try {
    const view = await call("/api/new", { game, params: readParams(), seats: [$("seat0").value, $("seat1").value],
      seed: Number($("seed").value || 0) });
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
// A zoo network plays only the rules and the board sizes it was trained on: where the default
// board is not among them (Progressive Amazons 10x10, not 19x19), a button sets the parameters to
// its board.
function offerZooBoard({ board, sizes }) {
  const inputs = [...document.querySelectorAll("#params input")];
  const differs = Object.entries(board).filter(([name, value]) =>
    inputs.some((input) => input.name === name && input.value !== String(value)
      && !(name === "size" && sizes.map(String).includes(input.value))));
  if (differs.length === 0) return;
  const button = document.createElement("button");
  button.id = "zoo-board";
  button.type = "button";
  button.textContent = `zoo's board: ${differs.map(([name, value]) => `${name} ${value}`).join(", ")}`;
  button.addEventListener("click", () => {
    for (const input of inputs) if (input.name in board) input.value = String(board[input.name]);
  });
  $("params").appendChild(button);
}

// The seat's "zoo" option names the sizes its network was trained on (it refuses the others).
const zooLabel = ({ sizes }) => (sizes.length ? `zoo (size ${sizes.join(", ")})` : "zoo");

async function setUp() {
  const info = await call("/api/games");
  const defaults = info.games.find((entry) => entry.name === game);
  const params = $("params");
  for (const [name, value] of Object.entries(defaults)) {
    if (name === "name") continue;
    const label = document.createElement("label");
    label.textContent = `${name} `;
    const input = document.createElement("input");
    input.name = name;
    input.value = value === null ? "" : String(value);
    input.size = 8;
    label.appendChild(input);
    params.appendChild(label);
  }
  const zoo = info.zoo[game]; // the board and sizes its zoo network plays, when it has one
  if (zoo) offerZooBoard(zoo);
  const specs = $("specs");
  const options = ["human", ...(zoo ? ["zoo"] : []), "random", "greedy", "mcts:50", "mcts:200", "mcts:1000",
    "oracle", "solver", ...info.checkpoints.map((name) => `az:${name}`)];
  for (const spec of options) specs.appendChild(new Option(spec === "zoo" ? zooLabel(zoo) : spec, spec));
  $("new").addEventListener("click", newGame);
  $("undo").addEventListener("click", () => sessionCall("/api/undo"));
  $("swap").addEventListener("click", () => sessionCall("/api/swap"));
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
