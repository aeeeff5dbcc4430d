// A part of the table drawn again in place: the part is drawn afresh, away from the page, and
// the page's elements are changed to match it where they differ, keeping each element that
// stands for the same thing (the same tag, and the same card, index, move, action, meld or
// seat). Nothing that did not change is written, so the browser lays out only what changed,
// and the focused button stays where it is (a button drawn anew would take the focus with it,
// and putting the focus back costs a layout of the whole page).
//
// An element kept keeps its own listeners: a part drawn in place gives its elements listeners
// that depend on nothing but those keys (a card's index, a meld's id, a button's move).
// What other modules put on the drawn elements is left where it belongs to them: which button
// of a row (a toolbar, dom.js's rovingFocus) is its tab stop, a card's flight (motion.js: its
// class and style), an inline style the drawing does not set (a seat's melds fitted to their room,
// meldroom.js), an element marked `data-extra` (the turn clock on a seat's panel, pacing.js;
// the mark under a seat's melds that scroll).

import { replace } from '../dom.js';

/** The attributes that say what an element stands for. */
const KEYS = ['id', 'data-card', 'data-index', 'data-move', 'data-action', 'data-meld', 'data-seat'];
/** In a row of buttons, the row's own: which button takes the focus. */
const ROW_OWN = new Set(['tabindex', 'data-focus']);
const ROW = '[role="toolbar"]';
const FLYING = 'flying';
/** The mark (`data-extra`) of an element another module put into a drawn part: left alone. */
const EXTRA = 'extra';

/**
 * Whether the page's `old` node can stand for the fresh drawing's `fresh`.
 * @param {Node} old
 * @param {Node} fresh
 */
function same(old, fresh) {
  if (old.nodeType !== fresh.nodeType) return false;
  if (!(old instanceof Element) || !(fresh instanceof Element)) return true;
  return old.tagName === fresh.tagName && KEYS.every((key) => old.getAttribute(key) === fresh.getAttribute(key));
}

/**
 * The drawing's inline style, a property at a time through the style object (the page's
 * policy refuses style attributes, so one cannot be written whole); the element's other
 * properties are other modules' (a seat's melds fitted to their room, meldroom.js).
 * @param {Element} old
 * @param {Element} fresh
 */
function syncStyle(old, fresh) {
  if (!(old instanceof HTMLElement) || !(fresh instanceof HTMLElement)) return;
  for (let i = 0; i < fresh.style.length; i += 1) {
    const property = fresh.style.item(i);
    const value = fresh.style.getPropertyValue(property);
    if (old.style.getPropertyValue(property) !== value) old.style.setProperty(property, value);
  }
}

/**
 * @param {Element} old
 * @param {Element} fresh
 * @param {boolean} inRow
 */
function syncAttributes(old, fresh, inRow) {
  for (const { name, value } of fresh.attributes) {
    if (inRow && ROW_OWN.has(name)) continue;
    if (name === 'style') {
      syncStyle(old, fresh);
      continue;
    }
    const wanted = name === 'class' && old.classList.contains(FLYING) ? `${value} ${FLYING}` : value;
    if (old.getAttribute(name) !== wanted) old.setAttribute(name, wanted);
  }
  for (const name of old.getAttributeNames()) {
    if (fresh.hasAttribute(name) || (inRow && ROW_OWN.has(name))) continue;
    // An inline style the drawing does not set is motion's (a card hidden under its copy in flight).
    if (name === 'style') continue;
    old.removeAttribute(name);
  }
}

/**
 * Makes `old` match `fresh` (the same kind of node, see `same`).
 * @param {Node} old
 * @param {Node} fresh
 * @param {boolean} inRow
 */
function morph(old, fresh, inRow) {
  if (!(old instanceof Element) || !(fresh instanceof Element)) {
    if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
    return;
  }
  const row = fresh.matches(ROW);
  syncAttributes(old, fresh, inRow);
  morphChildren(old, fresh, inRow || row);
  if (row) keepStop(old);
}

/**
 * Makes `stop` the tab stop of the row of `buttons`, writing only what changes (a tab index
 * written on the focused button makes the browser lay the page out at once).
 * @param {Iterable<Element>} buttons
 * @param {Element} stop
 * @param {boolean} remember mark it as the one the keyboard left the row at
 */
export function takeStop(buttons, stop, remember) {
  for (const button of buttons) {
    setAttr(button, 'tabindex', button === stop ? '0' : '-1');
    if (remember) setAttr(button, 'data-focus', button === stop ? '1' : '');
  }
}

/**
 * The tab stop of a row kept with new buttons in it: the focused button, else the one the
 * keyboard left the row at, else the one that was the stop, else the first.
 * @param {Element} row
 */
function keepStop(row) {
  const buttons = [...row.querySelectorAll('button')];
  const stop = buttons.find((b) => b === document.activeElement)
    || buttons.find((b) => b.getAttribute('data-focus') === '1')
    || buttons.find((b) => b.getAttribute('tabindex') === '0')
    || buttons[0];
  if (stop) takeStop(buttons, stop, false);
}

/**
 * Makes the children of `old` match those of `fresh`, place by place.
 * @param {Element} old
 * @param {Element} fresh
 * @param {boolean} inRow
 */
function morphChildren(old, fresh, inRow) {
  const was = [...old.childNodes].filter((node) => !(node instanceof HTMLElement && EXTRA in node.dataset));
  const now = [...fresh.childNodes];
  now.forEach((node, i) => {
    const there = was[i];
    if (!there) old.append(node);
    else if (same(there, node)) morph(there, node, inRow);
    else there.replaceWith(node);
  });
  for (const extra of was.slice(now.length)) extra.remove();
}

/**
 * Draws `container`'s children again as `draw` draws them into an empty element of the same
 * kind, changing only what differs.
 * @param {HTMLElement} container
 * @param {(fresh: HTMLElement) => void} draw
 */
export function drawInPlace(container, draw) {
  const fresh = /** @type {HTMLElement} */ (document.createElement(container.tagName));
  draw(fresh);
  morphChildren(container, fresh, container.matches(ROW));
}

/**
 * `replace(container, ...children)` done in place (see `drawInPlace`).
 * @param {HTMLElement} container
 * @param {...import('../dom.js').Child} children
 */
export function updateChildren(container, ...children) {
  drawInPlace(container, (fresh) => { replace(fresh, ...children); });
}

/**
 * Sets the text of `el`, writing only when it changed (a write makes the browser lay it out again).
 * @param {Element} el
 * @param {string} text
 */
export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/**
 * Sets an attribute of `el`, writing only when it changed.
 * @param {Element} el
 * @param {string} name
 * @param {string} value
 */
export function setAttr(el, name, value) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}
