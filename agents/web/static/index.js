// The game list: each game's board at its start, drawn small from /api/preview/GAME.
import { drawBoard } from "/static/board_draw.js";

const PICTURE = 150; // pixels: the larger side of each picture

async function picture(item) {
  const response = await fetch(`/api/preview/${item.dataset.game}`);
  if (!response.ok) return;
  const { title, board } = await response.json();
  const svg = item.querySelector("svg.preview");
  drawBoard(svg, board, PICTURE / (Math.max(board.width, board.height) + 2));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `the ${title} board`);
  item.dataset.drawn = "true";
}

const items = [...document.querySelectorAll("#games li.game")];
Promise.all(items.map(picture)).then(() => { document.body.dataset.ready = "true"; });
