// Which part of the table page to draw again after a change: the modules that change the
// table name the part, the page's entry says how each part is drawn. A change often draws
// several parts in a row (a new state: the table, then the deal's end, the pacing); the page
// is laid out once for all of them. Watchers run:
// - before a part is drawn again (`beforeRedraw`), to keep what the table was;
// - once in a change, before the first of some parts is drawn (`beforeChange`): motion reads
//   where the cards stood there, before anything of the change is written;
// - once after the change (`afterRedraw`), when every part of it is drawn: they write (the
//   hint's marks, the clock, the buttons of the top bar), each once however many of its parts
//   were drawn;
// - last (`whenDrawn`), after every writer: they read the page's layout (the keyboard's focus
//   put back, the talk's bubbles placed), so the page is laid out once for all of them.
// The change ends in a microtask: before the browser handles the next event (a key pressed
// right after the page showed the change finds the focus back), after the code that made the
// change (a frame's handler and its listeners) has run to its end.

/** @typedef {'table' | 'hand' | 'sort' | 'actions' | 'players' | 'again'} Part */

/** @type {Map<Part, Array<() => void>>} */
const drawers = new Map();
/** @type {Map<Part, Array<() => void>>} */
const befores = new Map();
/** @type {Map<Part, Array<() => void>>} */
const firsts = new Map();
/** @type {Map<Part, Array<() => void>>} */
const afters = new Map();
/** @type {Array<() => void>} */
const readers = [];

/** A change is being drawn: parts were drawn again since the page was last settled. */
let open = false;
/** The `beforeChange` watchers that ran in the change. */
const ranFirst = new Set();
/** The `afterRedraw` watchers the change's parts call for, in the order they were asked. */
const pending = new Set();

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
 * Runs `watch` before `part` is drawn again, each time.
 * @param {Part} part
 * @param {() => void} watch
 */
export function beforeRedraw(part, watch) {
  add(befores, part, watch);
}

/**
 * Runs `watch` once in a change, before the first of `parts` is drawn in it.
 * @param {readonly Part[]} parts
 * @param {() => void} watch
 */
export function beforeChange(parts, watch) {
  for (const part of parts) add(firsts, part, watch);
}

/**
 * Runs `watch` once after a change that drew `part` again, when all its parts are drawn.
 * @param {Part} part
 * @param {() => void} watch
 */
export function afterRedraw(part, watch) {
  add(afters, part, watch);
}

/**
 * Runs `watch` at the end of every change, after the `afterRedraw` watchers: the place to
 * read the page's layout.
 * @param {() => void} watch
 */
export function whenDrawn(watch) {
  readers.push(watch);
}

/** @param {Part} part */
export function redraw(part) {
  if (!open) {
    open = true;
    queueMicrotask(settle);
  }
  for (const watch of firsts.get(part) || []) {
    if (ranFirst.has(watch)) continue;
    ranFirst.add(watch);
    watch();
  }
  for (const watch of befores.get(part) || []) watch();
  for (const draw of drawers.get(part) || []) draw();
  for (const watch of afters.get(part) || []) pending.add(watch);
}

/**
 * Ends the change now: its watchers run (those of parts they draw again too), then the
 * readers. Runs by itself in a microtask after a redraw; nothing to do when none is open.
 */
export function settle() {
  if (!open) return;
  try {
    // A watcher may draw a part again (the deal's end draws the table): its watchers run too.
    do {
      while (pending.size) {
        const [watch] = pending;
        pending.delete(watch);
        watch();
      }
      for (const watch of readers) watch();
    } while (pending.size);
  } finally {
    open = false;
    ranFirst.clear();
    pending.clear();
  }
}
