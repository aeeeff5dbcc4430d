// On a phone the scores, the log and the talk sit below the whole table: the Scores button
// opens them over the table as a drawer (Esc or "Back to the table" closes it), so they are
// reachable without scrolling past every meld. While it is closed, the button counts the
// lines said at the table since it was last open (an unread mark), cleared on opening.

import { $, h } from '../dom.js';

let unread = 0;

/** The drawer's button shows, that is the page is laid out for a phone. */
function drawerShown() {
  const button = document.getElementById('side-button');
  return Boolean(button && button.getClientRects().length);
}

function renderUnread() {
  const button = $('#side-button');
  for (const old of button.querySelectorAll('.unread-mark, .unread-words')) old.remove();
  if (!unread) return;
  button.append(h('span', { class: 'unread-mark', 'aria-hidden': 'true' }, unread > 9 ? '9+' : String(unread)),
    h('span', { class: 'unread-words sr-only' }, ` (${unread} unread ${unread === 1 ? 'line' : 'lines'} of talk)`));
}

/** A line was said at the table by someone else: counted while the phone's drawer is shut. */
export function noteUnread() {
  if (!drawerShown() || document.body.classList.contains('side-open')) return;
  unread += 1;
  renderUnread();
}

/** @param {boolean} open */
function setOpen(open) {
  document.body.classList.toggle('side-open', open);
  $('#side-button').setAttribute('aria-expanded', String(open));
  if (open) {
    unread = 0;
    renderUnread();
    $('#side').scrollTop = 0;
    $('#side-close').focus();
  }
}

export function bindDrawer() {
  renderUnread();
  $('#side-button').addEventListener('click', () => setOpen(!document.body.classList.contains('side-open')));
  $('#side-close').addEventListener('click', () => {
    setOpen(false);
    $('#side-button').focus();
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && document.body.classList.contains('side-open')) {
      event.stopImmediatePropagation();
      setOpen(false);
      $('#side-button').focus();
    }
  }, { capture: true });
}
