// The moves this page sends: through the table's connection, one at a time (the next waits
// for the server's ack or refusal, or for a few seconds).

import { Connection } from '../connection.js';
import { clearMessage, message } from './notices.js';
import { redraw } from './redraw.js';

const GIVE_UP_MS = 8000;

/** @type {Connection | null} */
let connection = null;
/** @type {{ id: string, text: string } | null} */
let pending = null;

/**
 * Uses `next` for the table (stopping the connection before it).
 * @param {Connection} next
 */
export function useConnection(next) {
  if (connection) connection.stop();
  connection = next;
  connection.start();
}

export function stopConnection() {
  if (connection) connection.stop();
}

/** This page left its seat: a reconnection watches (says hello without the token). */
export function watchFromNowOn() {
  if (connection) connection.token = null;
}

export function reconnectNow() {
  if (connection) connection.reconnectNow();
}

/** A move can be sent now: connected, and no move on its way. */
export function canSend() {
  return !pending && Boolean(connection) && Boolean(connection?.isOpen);
}

/**
 * Sends a move; false when it was not sent (not connected, or a move is on its way).
 * @param {string} text
 */
export function send(text) {
  clearMessage();
  if (!connection || !connection.isOpen) {
    message('Not connected: the move was not sent. The page reconnects by itself; try again in a moment.', 'refusal');
    return false;
  }
  if (pending) return false;
  const id = connection.move(text);
  if (!id) return false;
  pending = { id, text };
  redraw('actions');
  setTimeout(() => {
    if (pending && pending.id === id) {
      pending = null;
      redraw('actions');
    }
  }, GIVE_UP_MS);
  return true;
}

/**
 * The server answered the move `id` (an ack or a refusal): returns its text when it was
 * this page's move on its way.
 * @param {string | undefined} id
 * @returns {string | null}
 */
export function settle(id) {
  if (!pending || pending.id !== id) return null;
  const text = pending.text;
  pending = null;
  return text;
}

/**
 * Sends a frame that is not a move (chat, react, continue, undo): its client id, or null
 * when not connected.
 * @param {Record<string, unknown>} fields
 */
export function sendFrame(fields) {
  return connection ? connection.send(fields) : null;
}

/** The connection dropped: no move is on its way any more. */
export function forgetPending() {
  pending = null;
}
