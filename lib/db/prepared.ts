import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type postgres from "postgres";
import { getDb } from "./client";

const dialect = new PgDialect();

type Parameter = postgres.ParameterOrJSON<never>;

/**
 * Runs one statement of a hot path as a prepared statement of its connection.
 *
 * drizzle sends every query unprepared, and postgres.js then needs two round trips for a query
 * with parameters (Parse/Describe to learn their types, then Bind/Execute) and the server plans it
 * afresh each time. A prepared statement is parsed and described once per connection; after that
 * each execution is one round trip, and the server can reuse its plan. Keep the statement's text
 * constant (values as parameters only): each distinct text is remembered per connection.
 */
export async function executePrepared<T extends Record<string, unknown>>(query: SQL): Promise<T[]> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  return getDb().$client.unsafe<T[]>(text, params as Parameter[], { prepare: true });
}
