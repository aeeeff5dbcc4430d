// The table this page shows, from its address (/t/<id>), and the addresses made from it.

export const tableId = decodeURIComponent(location.pathname.split('/')[2] || '');

/** @param {string} table */
export function tablePath(table) {
  return `/t/${encodeURIComponent(table)}`;
}

/**
 * The API's path of this table, and of its parts: apiPath('hint') is …/hint.
 * @param {...string} parts
 */
export function apiPath(...parts) {
  return [`/api/tables/${encodeURIComponent(tableId)}`, ...parts].join('/');
}

export const replayPath = () => `${tablePath(tableId)}/replay`;
