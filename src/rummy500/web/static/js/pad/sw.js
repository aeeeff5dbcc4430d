// The score pad's service worker: the page, its script and styles and the engine's scoring
// tables are kept, so that the pad opens and scores with no network. Each request goes to the
// network first (a new version of the page is taken at once) and to the kept copy when the
// network does not answer.

const CACHE = 'rummy500-pad-v1';
const SHELL = ['/pad', '/static/dist/pad.js', '/static/dist/settings.js', '/static/style.css',
  '/static/pad.css', '/static/pad.webmanifest', '/static/pad-icon.svg', '/api/rules'];

/** @type {any} */
const worker = self;

worker.addEventListener('install', (/** @type {any} */ event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => worker.skipWaiting()));
});

worker.addEventListener('activate', (/** @type {any} */ event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => worker.clients.claim()));
});

/** @param {Request} request */
function kept(request) {
  const url = new URL(request.url);
  return url.origin === worker.location.origin && (
    url.pathname === '/pad' || url.pathname.startsWith('/static/') || url.pathname === '/api/rules'
    || url.pathname === '/api/pad/tables');
}

worker.addEventListener('fetch', (/** @type {any} */ event) => {
  /** @type {Request} */
  const request = event.request;
  if (request.method !== 'GET' || !kept(request)) return;
  const key = new URL(request.url).pathname === '/pad' ? '/pad' : request;
  event.respondWith(fetch(request).then((response) => {
    if (response.ok) {
      const copy = response.clone();
      caches.open(CACHE).then((cache) => cache.put(key, copy));
    }
    return response;
  }).catch(() => caches.match(key, { ignoreVary: true }).then((found) => found || Response.error())));
});
