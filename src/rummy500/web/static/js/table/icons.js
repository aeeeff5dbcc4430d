// The reactions' icons, drawn by the page as inline SVG in the text's colour: an emoji needs
// a font with it, and a system without one shows empty boxes.

const SVG = 'http://www.w3.org/2000/svg';

/** Each reaction's drawing on a 24×24 grid: paths stroked, dots filled. */
/** @type {Record<string, { paths: string[], dots?: [number, number][] }>} */
const DRAWINGS = {
  // An open hand, waving.
  hello: { paths: ['M8 13V6.5a1.5 1.5 0 0 1 3 0V11', 'M11 11V4.5a1.5 1.5 0 0 1 3 0V11', 'M14 11V5.5a1.5 1.5 0 0 1 3 0V12',
    'M17 12V8.5a1.5 1.5 0 0 1 3 0V15a6 6 0 0 1-6 6h-1.5a6 6 0 0 1-4.8-2.4L4.3 15a1.5 1.5 0 0 1 2.4-1.8L8 14.5',
    'M3 6.5c.6-1.6 1.6-2.8 3-3.5'] },
  // A thumb up.
  nice: { paths: ['M3 10h4v11H3z', 'M7 10l4-7c1.5 0 2.8 1.2 2.5 2.8L13 10h5.5a2 2 0 0 1 2 2.3l-1.2 6.9A2 2 0 0 1 17.3 21H7'] },
  // Faces: a circle, two eyes, a mouth of their own.
  wow: { paths: ['M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18z', 'M12 13.5a2 2.5 0 1 0 0 5a2 2.5 0 1 0 0-5z'], dots: [[9, 9.5], [15, 9.5]] },
  oops: { paths: ['M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18z', 'M7.5 14h9v3.5h-9z', 'M7.5 15.75h9', 'M10.5 14v3.5', 'M13.5 14v3.5'], dots: [[9, 9.5], [15, 9.5]] },
  thinking: { paths: ['M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18z', 'M9 16h5', 'M7.5 7.2l2.5-.9', 'M14 7.2l2.5.4'], dots: [[9, 10], [15, 10]] },
  laugh: { paths: ['M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18z', 'M7.5 13h9a4.5 4.5 0 0 1-9 0z', 'M7.5 10l1.5-1.5 1.5 1.5', 'M13.5 10l1.5-1.5 1.5 1.5'] },
  // An hourglass.
  hurry: { paths: ['M6 3h12', 'M6 21h12', 'M7.5 3c0 5 9 6 9 9s-9 4-9 9', 'M16.5 3c0 5-9 6-9 9s9 4 9 9', 'M10 18.5h4'] },
  // A cup: a good game.
  gg: { paths: ['M8 4h8v5a4 4 0 0 1-8 0z', 'M8 6H5.5a2.5 2.5 0 0 0 2.7 3.9', 'M16 6h2.5a2.5 2.5 0 0 1-2.7 3.9', 'M12 13v4', 'M8.5 20h7', 'M10 17h4v3h-4z'] },
};

/** The reactions this page draws. */
export const ICONS = Object.keys(DRAWINGS);

/** Drawings that are not reactions: a turn clock's dial. */
/** @type {Record<string, { paths: string[], dots?: [number, number][] }>} */
const OTHERS = {
  clock: { paths: ['M12 4a8.5 8.5 0 1 0 0 17a8.5 8.5 0 1 0 0-17z', 'M12 8v4.5l3 2', 'M10 2h4'] },
};

/**
 * The icon of reaction `what` (a plain circle for one this page does not know), hidden from
 * screen readers: the button or line that holds it says it in words.
 * @param {string} what
 * @returns {SVGSVGElement}
 */
export function reactionIcon(what) {
  const drawing = DRAWINGS[what] || OTHERS[what] || { paths: ['M12 3a9 9 0 1 0 0 18a9 9 0 1 0 0-18z'] };
  const svg = /** @type {SVGSVGElement} */ (document.createElementNS(SVG, 'svg'));
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('class', 'icon');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.dataset.icon = what;
  for (const d of drawing.paths) {
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  for (const [cx, cy] of drawing.dots || []) {
    const dot = document.createElementNS(SVG, 'circle');
    dot.setAttribute('cx', String(cx));
    dot.setAttribute('cy', String(cy));
    dot.setAttribute('r', '1.2');
    dot.setAttribute('class', 'dot');
    svg.append(dot);
  }
  return svg;
}

/** A turn clock's dial, hidden from screen readers as the reactions' are. */
export function clockIcon() {
  return reactionIcon('clock');
}
