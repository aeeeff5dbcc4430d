// On a phone the scores and the log sit below the whole table: the Scores button opens them
// over the table as a drawer (Esc or "Back to the table" closes it), so they are reachable
// without scrolling past every meld.

import { $ } from '../dom.js';

/** @param {boolean} open */
function setOpen(open) {
  document.body.classList.toggle('side-open', open);
  $('#side-button').setAttribute('aria-expanded', String(open));
  if (open) {
    $('#side').scrollTop = 0;
    $('#side-close').focus();
  }
}

export function bindDrawer() {
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
