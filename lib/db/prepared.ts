import { is, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { PostgresJsSession } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import { getDb, type DbOrTx } from "./client";

const dialect = new PgDialect();

type Parameter = postgres.ParameterOrJSON<never>;

/**
 * Runs one statement of a hot path as a prepared statement of its connection: on the pool, or
 * inside an open transaction (`tx`), whose statements are then prepared on its connection too.
 *
 * drizzle sends every query unprepared, and postgres.js then needs two round trips for a query
 * with parameters (Parse/Describe to learn their types, then Bind/Execute) and the server parses
 * and plans it afresh each time. A prepared statement is parsed and described once per connection;
 * after that each execution is one round trip, and the server can reuse its plan. Keep the
 * statement's text constant (values as parameters only — a row set as one JSON value, not a
 * builder's `.values()`, whose text grows with the rows): each distinct text is remembered per
 * connection.
 */
export async function executePrepared<T extends Record<string, unknown>>(
  query: SQL,
  db: DbOrTx = getDb(),
): Promise<T[]> {
  const session = db._.session;
  // `is` checks drizzle's entity kind: the web server's bundle may hold a second copy of the class.
  if (!is(session, PostgresJsSession)) throw new Error("Not a postgres.js session.");
  const { sql: text, params } = dialect.sqlToQuery(query);
  const client = session.client as postgres.Sql;
  return client.unsafe<T[]>(text, params as Parameter[], { prepare: true });
}
