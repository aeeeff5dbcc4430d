// The HTTP API of PROTOCOL.md (and the pages' own routes): JSON in, JSON out, errors in words.

/** An answer of the server that is not a success, or no answer at all (status 0). */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json' };
  /** @type {RequestInit} */
  const options = { method, headers };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    options.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new ApiError(0, 'network', 'The server cannot be reached. Check the connection and try again.');
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = data && data.message ? data.message : `The server answered ${response.status}.`;
    throw new ApiError(response.status, data && data.error ? data.error : 'http', message);
  }
  return data;
}

/** @param {string} path */
export const getJSON = (path) => api('GET', path);
/**
 * @param {string} path
 * @param {unknown} body
 */
export const postJSON = (path, body) => api('POST', path, body);
