// The board view (envs/board_view.py) as SVG: one <g class="cell"> per cell with data-cell,
// data-id, data-owner, data-piece, data-tags and data-legal, the lines and labels. The game's
// page and the game list's pictures both draw with it. Plain ES module, no dependencies.

const SVG = "http://www.w3.org/2000/svg";
export const STONES = { black: "#191919", white: "#f5f5f5", blue: "#285ac8", neutral: "#969696" };
const HEX_R = 1 / Math.sqrt(3);
// the chess figures in their solid forms, filled with the owner's colour; U+FE0E asks for the
// text glyph where a system would draw the pawn as an emoji
const FIGURES = { king: "\u265A", queen: "\u265B", rook: "\u265C", bishop: "\u265D", knight: "\u265E",
  pawn: "\u265F\uFE0E" };

export function node(name, attributes = {}, parent = null) {
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

function drawFigure(cell, g) {
  const colour = STONES[cell.owner];
  const edge = dark(colour) ? "#f0f0f0" : "#111111";
  if (cell.piece === "hopper") { // a ring, where a piece that lands hops on
    node("circle", { class: "hopper", cx: cell.x, cy: cell.y, r: 0.3, fill: "none", stroke: edge, "stroke-width": 0.2 }, g);
    node("circle", { class: "hopper", cx: cell.x, cy: cell.y, r: 0.3, fill: "none", stroke: colour, "stroke-width": 0.12 }, g);
    return;
  }
  const figure = node("text", { class: "figure", x: cell.x, y: cell.y + 0.04, fill: colour, stroke: edge }, g);
  figure.textContent = FIGURES[cell.piece];
}

// Draw ``board`` (a BoardView as data; each cell's ``moves`` where it can be clicked) into
// ``svg`` at ``px`` pixels a cell width; ``clicked(cell)`` is called on a click when given.
export function drawBoard(svg, board, px, clicked = null) {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `-1 -1 ${board.width + 2} ${board.height + 2}`);
  svg.setAttribute("width", Math.round((board.width + 2) * px));
  svg.setAttribute("height", Math.round((board.height + 2) * px));
  for (const line of board.lines) {
    node("line", { x1: line.x1, y1: line.y1, x2: line.x2, y2: line.y2, stroke: line.colour,
      "stroke-width": line.width, "stroke-linecap": "round" }, svg);
  }
  const cells = node("g", { id: "cells" }, svg);
  for (const cell of board.cells) {
    const legal = (cell.moves || []).some((move) => move.legal);
    const g = node("g", { class: "cell", "data-cell": cell.name, "data-id": cell.id, "data-owner": cell.owner,
      "data-piece": cell.piece, "data-tags": cell.tags.join(" "), "data-legal": legal }, cells);
    const title = node("title", {}, g);
    title.textContent = cell.name + (cell.owner ? ` (${[cell.owner, cell.piece].filter(Boolean).join(" ")})` : "");
    if (cell.shape === "hex") node("polygon", { class: "ground", points: hexagon(cell.x, cell.y), fill: cell.fill }, g);
    else node("rect", { class: "ground", x: cell.x - 0.5, y: cell.y - 0.5, width: 1, height: 1, fill: cell.fill }, g);
    if (cell.piece) drawFigure(cell, g);
    else if (cell.owner) node("circle", { class: "stone", cx: cell.x, cy: cell.y, r: 0.36, fill: STONES[cell.owner] }, g);
    if (cell.text) {
      const mark = node("text", { class: "mark", x: cell.x, y: cell.y, fill: textColour(cell) }, g);
      if (cell.tags.includes("given")) mark.setAttribute("font-weight", "bold");
      mark.textContent = cell.text;
    }
    if (clicked) g.addEventListener("click", () => clicked(cell));
  }
  for (const label of board.labels) {
    node("text", { class: "label", x: label.x, y: label.y }, svg).textContent = label.text;
  }
}
