// Building elements without innerHTML: every text goes in as text, so names are never markup.

/** @typedef {Node | string | number | null | undefined | false} Leaf */
/** @typedef {Leaf | Leaf[] | Leaf[][] | Array<Leaf | Leaf[]>} Child */

/**
 * An element with attributes (`class`, `dataset`, `on<event>` listeners, others as given;
 * null, undefined and false leave one out) and children (nested arrays flattened).
 * @param {string} tag
 * @param {Record<string, any>} [attrs]
 * @param {...Child} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/**
 * The element `selector` finds: one of the page's own, so typed as present (a caller that
 * may find none checks).
 * @param {string} selector
 * @param {ParentNode} [root]
 * @returns {HTMLElement}
 */
export function $(selector, root = document) {
  return /** @type {HTMLElement} */ (root.querySelector(selector));
}

/**
 * @param {Element} el
 * @param {...Child} children
 */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** @type {Set<Element>} */
const toScroll = new Set();

/**
 * Scrolls `el` to its end in the next frame, once however often it is asked: the end is read
 * there, when the frame lays the page out anyway, not at once (which would lay out a page
 * still being changed, and lay it out again after).
 * @param {Element} el
 */
export function scrollToEndSoon(el) {
  if (toScroll.size === 0) {
    requestAnimationFrame(() => {
      for (const scrolled of toScroll) scrolled.scrollTop = scrolled.scrollHeight;
      toScroll.clear();
    });
  }
  toScroll.add(el);
}

// Arrow keys move the focus along a row of buttons (one tab stop for the whole row).
/**
 * @param {HTMLElement} container
 * @param {string} [selector]
 */
export function rovingFocus(container, selector = 'button') {
  /** @type {HTMLElement[]} */
  const items = [...container.querySelectorAll(selector)].map((item) => /** @type {HTMLElement} */ (item));
  if (!items.length) return;
  let current = items.findIndex((item) => item.dataset.focus === '1');
  if (current < 0) current = 0;
  items.forEach((item, i) => { item.tabIndex = i === current ? 0 : -1; });
  container.onkeydown = (event) => {
    /** @type {Record<string, number>} */
    const keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1, Home: -1e9, End: 1e9 };
    if (!(event.key in keys) || event.altKey || event.ctrlKey || event.metaKey) return;
    const list = [...container.querySelectorAll(selector)].map((item) => /** @type {HTMLElement} */ (item));
    const at = list.indexOf(/** @type {HTMLElement} */ (document.activeElement));
    if (at < 0) return;
    const next = Math.max(0, Math.min(list.length - 1, at + keys[event.key]));
    event.preventDefault();
    list.forEach((item, i) => {
      item.tabIndex = i === next ? 0 : -1;
      item.dataset.focus = i === next ? '1' : '';
    });
    list[next].focus();
  };
}

/**
 * "1 card", "2 cards".
 * @param {number} count
 * @param {string} word
 * @param {string} [many]
 */
export function plural(count, word, many = `${word}s`) {
  return `${count} ${count === 1 ? word : many}`;
}

/**
 * A form field of the page (an input or a select), to read or set its value.
 * @param {string} selector
 * @returns {HTMLInputElement | HTMLSelectElement}
 */
export function field(selector) {
  return /** @type {HTMLInputElement | HTMLSelectElement} */ ($(selector));
}
