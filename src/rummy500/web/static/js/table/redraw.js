// Which part of the table page to draw again after a change: the modules that change the
// table name the part, the page's entry says how each part is drawn.

/** @typedef {'table' | 'hand' | 'sort' | 'actions' | 'players' | 'again'} Part */

/** @type {Map<Part, Array<() => void>>} */
const drawers = new Map();

/**
 * @param {Part} part
 * @param {() => void} draw
 */
export function onRedraw(part, draw) {
  drawers.set(part, [...(drawers.get(part) || []), draw]);
}

/** @param {Part} part */
export function redraw(part) {
  for (const draw of drawers.get(part) || []) draw();
}
