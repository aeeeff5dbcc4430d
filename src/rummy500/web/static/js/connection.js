// One WebSocket to a table (PROTOCOL.md), kept open: it says hello, sends moves with their seq,
// pings, and after a network drop reconnects by itself, saying so while it does. The welcome
// after a reconnect is the whole truth, so nothing missed is lost. It speaks version 3: each
// update is folded into the state held (./fold.js) and handed on with it as `frame.state`;
// an update that does not follow asks for the whole state again (`resync`).

import { fold, follows, VERSION } from './fold.js';

const PING_EVERY_MS = 10000;
const PONG_WITHIN_MS = 6000;
const RETRY_MS = [300, 1000, 2000, 3000, 5000];

export class Connection {
  // handlers: welcome(frame), update(frame), ack(frame), refused(frame), error(frame),
  // status(kind, detail), rejected(code) for a token the table does not know.
  /**
   * @param {string} table
   * @param {string | null} token
   * @param {Record<string, (...args: any[]) => void>} handlers
   */
  constructor(table, token, handlers) {
    this.table = table;
    this.token = token;
    this.handlers = handlers;
    /** @type {WebSocket | null} */
    this.socket = null;
    this.attempt = 0;
    this.seq = -1;
    /** @type {Record<string, any> | null} the state as of `seq` */
    this.state = null;
    this.resyncing = false;
    this.counter = 0;
    this.closedByUs = false;
    /** @type {ReturnType<typeof setInterval> | undefined} */
    this.pingTimer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.pongTimer = undefined;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retryTimer = undefined;
    this.everOpen = false;
    window.addEventListener('offline', () => this.drop('the network is offline'));
    window.addEventListener('online', () => this.reconnectNow());
  }

  start() {
    this.closedByUs = false;
    this.open();
  }

  stop() {
    this.closedByUs = true;
    clearTimeout(this.retryTimer);
    this.clearPing();
    if (this.socket) this.socket.close(1000);
  }

  open() {
    clearTimeout(this.retryTimer);
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(this.table)}`);
    this.socket = socket;
    this.handlers.status(this.everOpen ? 'reconnecting' : 'connecting', this.attempt);
    socket.onopen = () => {
      this.resyncing = false;
      socket.send(JSON.stringify({ type: 'hello', token: this.token, v: VERSION }));
      this.startPing();
    };
    socket.onmessage = (message) => this.receive(socket, message);
    socket.onclose = (event) => this.closed(socket, event);
    socket.onerror = () => {};
  }

  /**
   * @param {WebSocket} socket
   * @param {MessageEvent} message
   */
  receive(socket, message) {
    if (socket !== this.socket) return;
    let frame;
    try {
      frame = JSON.parse(message.data);
    } catch {
      return;
    }
    clearTimeout(this.pongTimer);
    this.pongTimer = undefined;
    if (frame.type === 'update' && !frame.state) {
      if (this.resyncing || !this.state) return;
      if (!follows(this.seq, frame)) {
        this.resyncing = true;
        this.socket?.send(JSON.stringify({ type: 'resync' }));
        return;
      }
      frame.state = fold(this.state, frame);
    }
    if (typeof frame.seq === 'number' && (frame.type === 'welcome' || frame.type === 'update')) {
      this.seq = frame.seq;
      this.state = frame.state || null;
    }
    if (frame.type === 'welcome') {
      this.resyncing = false;
      const again = this.everOpen;
      this.everOpen = true;
      this.attempt = 0;
      this.handlers.status('open', again);
    }
    const handler = this.handlers[frame.type];
    if (handler) handler(frame);
  }

  /**
   * @param {WebSocket} socket
   * @param {CloseEvent} event
   */
  closed(socket, event) {
    if (socket !== this.socket) return;
    this.clearPing();
    this.socket = null;
    if (this.closedByUs) return;
    if (event.code === 4401 || event.code === 4404) {
      this.handlers.rejected(event.code, event.reason);
      return;
    }
    this.scheduleRetry(event.code === 1008 ? 'the server closed the connection' : 'the connection dropped');
  }

  /** @param {string} why */
  scheduleRetry(why) {
    clearTimeout(this.retryTimer);
    const wait = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
    this.attempt += 1;
    this.handlers.status('lost', { why, attempt: this.attempt, wait });
    this.retryTimer = setTimeout(() => this.open(), wait);
  }

  // The network is gone (or a ping went unanswered): say so and try again.
  /** @param {string} why */
  drop(why) {
    if (this.closedByUs) return;
    const socket = this.socket;
    this.socket = null;
    this.clearPing();
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      try { socket.close(); } catch { /* already closed */ }
    }
    this.scheduleRetry(why);
  }

  reconnectNow() {
    if (this.closedByUs || (this.socket && this.socket.readyState <= 1)) return;
    this.attempt = 0;
    this.open();
  }

  startPing() {
    this.clearPing();
    this.pingTimer = setInterval(() => {
      if (!this.socket || this.socket.readyState !== 1) return;
      this.socket.send(JSON.stringify({ type: 'ping' }));
      if (!this.pongTimer) {
        this.pongTimer = setTimeout(() => this.drop('the server stopped answering'), PONG_WITHIN_MS);
      }
    }, PING_EVERY_MS);
  }

  clearPing() {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
    this.pingTimer = undefined;
    this.pongTimer = undefined;
  }

  get isOpen() {
    return Boolean(this.socket) && this.socket?.readyState === 1 && this.everOpen;
  }

  // Sends a move; returns its client id, or null when not connected.
  /**
   * @param {string} text
   * @returns {string | null}
   */
  move(text) {
    if (!this.isOpen || !this.socket) return null;
    this.counter += 1;
    const id = `m${this.counter}-${Date.now().toString(36)}`;
    this.socket.send(JSON.stringify({ type: 'move', id, seq: this.seq, move: text }));
    return id;
  }

  // Sends another frame (chat, react, continue, undo) with a client id of its own; returns
  // the id, or null when not connected.
  /**
   * @param {Record<string, unknown>} fields
   * @returns {string | null}
   */
  send(fields) {
    if (!this.isOpen || !this.socket) return null;
    this.counter += 1;
    const id = `${String(fields.type || 'f').charAt(0)}${this.counter}-${Date.now().toString(36)}`;
    this.socket.send(JSON.stringify({ id, ...fields }));
    return id;
  }

}
