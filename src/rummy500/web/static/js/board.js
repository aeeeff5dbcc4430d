// Pieces of a table drawn the same way at the table and in a replay: the discard pile fanned,
// the melds with who laid each card, a hand, a seat's badge.

import { cardFace, pretty, spoken } from './cards.js';
import { h, plural, rovingFocus } from './dom.js';

// Short marks for the seats (initials, made unique), shown under each card of a meld.
/**
 * @param {ReadonlyArray<string | null | undefined>} names
 * @returns {string[]}
 */
export function seatMarks(names) {
  const marks = names.map((name) => {
    const words = String(name || '?').trim().split(/\s+/).filter(Boolean);
    const mark = words.length > 1 ? words[0][0] + words[1][0] : (words[0] || '?').slice(0, 2);
    return mark.toUpperCase();
  });
  return marks.map((mark, seat) => (marks.indexOf(mark) !== seat || marks.lastIndexOf(mark) !== seat
    ? `${mark[0]}${seat + 1}` : mark));
}

/**
 * @param {number} seat
 * @param {readonly string[]} marks
 * @param {readonly string[]} names
 * @param {string} [extra]
 */
export function seatBadge(seat, marks, names, extra = '') {
  return h('span', { class: `badge seat-${seat % 8} ${extra}`, title: names[seat] }, marks[seat]);
}

// A group of pieces drawn afresh in container, or `empty` when there are none: a toolbar
// whose `buttons` take turns at the keyboard focus, or a plain list when no buttons are given.
/**
 * @template T
 * @param {HTMLElement} container
 * @param {readonly T[]} items
 * @param {{ empty: HTMLElement, class: string, label: string, buttons: string | null }} group
 * @param {(item: T, index: number) => HTMLElement} draw
 */
function renderGroup(container, items, group, draw) {
  container.replaceChildren();
  if (!items.length) {
    container.append(group.empty);
    return;
  }
  const list = h('div', { class: group.class, role: group.buttons ? 'toolbar' : 'list',
    'aria-label': group.label });
  items.forEach((item, index) => list.append(draw(item, index)));
  container.append(list);
  if (group.buttons) rovingFocus(list, group.buttons);
}

// The pile, bottom first, fanned so every card shows its corner. options.take(index) makes
// each card a button; options.takeable(index) says whether the engine lists that take.
/**
 * @param {HTMLElement} container
 * @param {readonly string[]} pile
 * @param {{ take?: (index: number) => unknown, takeable?: (index: number) => boolean, mustUse?: string | null }} [options]
 */
export function renderPile(container, pile, options = {}) {
  renderGroup(container, pile, {
    empty: h('span', { class: 'empty' }, 'The discard pile is empty.'),
    class: 'fan', label: `Discard pile, ${plural(pile.length, 'card')}, bottom first`,
    buttons: options.take ? 'button' : null,
  }, (text, index) => {
    const depth = pile.length - 1 - index;
    const where = depth === 0 ? 'top card' : `${plural(depth, 'card')} above it`;
    let el;
    if (options.take) {
      const ok = options.takeable ? options.takeable(index) : true;
      el = cardFace(text, {
        size: 'pile', button: true,
        label: `Take ${spoken(text)} (${where})${ok ? '' : ', not a legal take now'}`,
        extraClass: ok ? 'takeable' : 'dim',
        dataset: { index: String(index) },
      });
      el.addEventListener('click', () => options.take?.(index));
    } else {
      el = cardFace(text, { size: 'pile', label: `${spoken(text)} (${where})` });
      el.setAttribute('role', 'listitem');
    }
    if (options.mustUse === text) el.classList.add('must');
    return el;
  });
}

// The melds, each with its id; every card carries the mark of the seat that laid it.
// options.target(id) → whether the selected card can go there; options.choose(id) on a click.
/**
 * @param {HTMLElement} container
 * @param {readonly import('./protocol.js').Meld[]} melds
 * @param {readonly string[]} names
 * @param {readonly string[]} marks
 * @param {{ target?: (id: string) => boolean, choose?: (id: string) => unknown }} [options]
 */
export function renderMelds(container, melds, names, marks, options = {}) {
  renderGroup(container, melds, {
    empty: h('p', { class: 'empty' }, 'No melds on the table yet.'),
    class: 'meld-list', label: 'Melds on the table',
    buttons: options.choose ? 'button.meld' : null,
  }, (meld) => {
    const cards = meld.cards.map((text, i) => h('span', { class: 'meld-card', dataset: { by: String(meld.by[i]) } },
      cardFace(text, { size: 'meld', label: `${spoken(text)}, laid by ${names[meld.by[i]]}` }),
      h('span', { class: `mark seat-${meld.by[i] % 8}`, 'aria-hidden': 'true' }, marks[meld.by[i]])));
    const label = `${meld.id}: ${meld.cards.map(pretty).join(' ')}`;
    const body = [h('span', { class: 'meld-id' }, meld.id), h('span', { class: 'meld-cards' }, cards)];
    let el;
    if (options.choose) {
      const target = options.target ? options.target(meld.id) : false;
      el = h('button', { type: 'button', class: `meld${target ? ' target' : ''}`,
        'aria-label': `${label}${target ? ' (lay the selected card off here)' : ''}`,
        dataset: { meld: meld.id } }, body);
      el.addEventListener('click', () => options.choose?.(meld.id));
    } else {
      el = h('div', { class: 'meld', role: 'listitem', 'aria-label': label }, body);
    }
    return el;
  });
}

// A hand of face-up cards; options.toggle(index) makes them selectable buttons.
/**
 * @param {HTMLElement} container
 * @param {readonly string[]} cards
 * @param {{ toggle?: (index: number) => unknown, selected?: Set<number>, mustUse?: string | null, label?: string, size?: string }} [options]
 */
export function renderHand(container, cards, options = {}) {
  renderGroup(container, cards, {
    empty: h('span', { class: 'empty' }, 'No cards in hand.'),
    class: 'hand-row', label: options.label || 'Hand',
    buttons: options.toggle ? 'button' : null,
  }, (text, index) => {
    let el;
    if (options.toggle) {
      const pressed = options.selected ? options.selected.has(index) : false;
      el = cardFace(text, { size: options.size || 'hand', button: true, pressed,
        extraClass: [pressed ? 'selected' : '', options.mustUse === text ? 'must' : ''].join(' ').trim() || null,
        dataset: { index: String(index) } });
      el.addEventListener('click', () => options.toggle?.(index));
    } else {
      el = cardFace(text, { size: options.size || 'hand' });
      el.setAttribute('role', 'listitem');
    }
    return el;
  });
}
