// The HTTP API of PROTOCOL.md (and the pages' own routes): JSON in, JSON out, errors in words.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export async function api(method, path, body) {
  const options = { method, headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
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

export const getJSON = (path) => api('GET', path);
export const postJSON = (path, body) => api('POST', path, body);
