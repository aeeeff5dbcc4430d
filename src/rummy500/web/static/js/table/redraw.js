// Which part of the table page to draw again after a change: the modules that change the
// table name the part, the page's entry says how each part is drawn. Watchers of a part run
// before its drawers (to see the page as it was: motion remembers where the cards stood) and
// after them (to animate, to tell the viewer that it is their turn).

/** @typedef {'table' | 'hand' | 'sort' | 'actions' | 'players' | 'again'} Part */

/** @type {Map<Part, Array<() => void>>} */
const drawers = new Map();
/** @type {Map<Part, Array<() => void>>} */
const befores = new Map();
/** @type {Map<Part, Array<() => void>>} */
const afters = new Map();

/**
 * @param {Map<Part, Array<() => void>>} map
 * @param {Part} part
 * @param {() => void} run
 */
function add(map, part, run) {
  map.set(part, [...(map.get(part) || []), run]);
}

/**
 * @param {Part} part
 * @param {() => void} draw
 */
export function onRedraw(part, draw) {
  add(drawers, part, draw);
}

/**
 * Runs `watch` before `part` is drawn again.
 * @param {Part} part
 * @param {() => void} watch
 */
export function beforeRedraw(part, watch) {
  add(befores, part, watch);
}

/**
 * Runs `watch` after `part` is drawn again.
 * @param {Part} part
 * @param {() => void} watch
 */
export function afterRedraw(part, watch) {
  add(afters, part, watch);
}

/** @param {Part} part */
export function redraw(part) {
  for (const watch of befores.get(part) || []) watch();
  for (const draw of drawers.get(part) || []) draw();
  for (const watch of afters.get(part) || []) watch();
}
