/**
 * Postgres array literals, for `id = any(${uuidArray(ids)}::uuid[])` (drizzle would spread a JS
 * array into separate parameters). Hot statements find their rows this way, by key: the planner
 * sees how many values there are, where a `json_to_recordset` join is always guessed at 100 rows
 * and may be answered by scanning a whole table or partition.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function uuidArray(ids: string[]): string {
  for (const id of ids) if (!UUID.test(id)) throw new Error(`Not a uuid: ${id}`);
  return `{${ids.join(",")}}`;
}

/** Any strings: each quoted, its backslashes and double quotes escaped. */
export function textArray(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(",")}}`;
}
