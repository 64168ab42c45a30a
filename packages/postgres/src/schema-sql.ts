/**
 * The tables and the one function the adapter uses, as SQL for one schema: what `ensureSchema`
 * runs, and what the README prints for teams that run their own migrations.
 *
 * - `records`: one row per store key. The key is `bytea` (its UTF-8), because a store key may
 *   hold any well-formed text, NUL included, which `text` refuses. The record is `text`, the
 *   JSON exactly as written: `jsonb` would refuse a `\u0000` in a string, reorder keys and
 *   rewrite numbers, so a record another program wrote could not be left byte for byte.
 *   `version` is the port's opaque version (`nextVersionId`), new with every write.
 * - `record_versions`: the kept versions, stamped in µs by the database's clock.
 * - `presence`: one row per presence key; `expires_at` is computed by the database (`now()`).
 * - `compare_and_set`: the store's one write, in one round trip (see its comment).
 */
import { quoteSchema } from './schema-name.js';

/** The statements that create the schema, its tables and its function, idempotently. */
export function schemaStatements(schema: string): readonly string[] {
  const s = quoteSchema(schema);
  return [
    `CREATE SCHEMA IF NOT EXISTS ${s}`,
    `CREATE TABLE IF NOT EXISTS ${s}.records (
  key bytea PRIMARY KEY,
  version text NOT NULL,
  record text NOT NULL
)`,
    `CREATE TABLE IF NOT EXISTS ${s}.record_versions (
  key bytea NOT NULL,
  id text NOT NULL,
  written_us bigint NOT NULL,
  record text NOT NULL,
  PRIMARY KEY (key, id)
)`,
    `CREATE INDEX IF NOT EXISTS record_versions_by_time ON ${s}.record_versions (key, written_us)`,
    `CREATE TABLE IF NOT EXISTS ${s}.presence (
  key bytea PRIMARY KEY,
  value bytea NOT NULL,
  expires_at timestamptz NOT NULL
)`,
    `CREATE INDEX IF NOT EXISTS presence_by_expiry ON ${s}.presence (expires_at)`,
    compareAndSetFunction(s),
  ];
}

/** The whole schema as one SQL script, for a migration. */
export function schemaSql(schema: string): string {
  return `${schemaStatements(schema).join(';\n\n')};\n`;
}

/**
 * The store's compare-and-set: writes `p_record` under `p_key` only where the stored version
 * is still `p_seen` (NULL: no record), stamping `p_version`; a NULL `p_record` deletes. When
 * the version moved, it writes nothing and returns the record and version stored now, so the
 * caller re-runs its transform without a read. Each statement of a PL/pgSQL function takes a
 * fresh snapshot, so that read sees the write that beat this one. With `p_keep_version`, the
 * written record is also kept as version `p_version`, stamped by the database's clock (raised
 * past the key's newest version when the clock reads earlier), and versions past the retention
 * (`p_keep` newest, `p_max_age_ms`; NULL for no limit) are dropped, in the same transaction.
 */
function compareAndSetFunction(s: string): string {
  const body = `
#variable_conflict use_column
DECLARE
  v_time bigint;
  v_newest bigint;
BEGIN
  written := false;
  IF p_seen IS NULL THEN
    INSERT INTO ${s}.records (key, version, record) VALUES (p_key, p_version, p_record)
      ON CONFLICT (key) DO NOTHING;
  ELSIF p_record IS NULL THEN
    DELETE FROM ${s}.records r WHERE r.key = p_key AND r.version = p_seen;
  ELSE
    UPDATE ${s}.records r SET version = p_version, record = p_record
      WHERE r.key = p_key AND r.version = p_seen;
  END IF;
  IF NOT FOUND THEN
    SELECT r.version, r.record INTO current_version, current_record
      FROM ${s}.records r WHERE r.key = p_key;
    RETURN;
  END IF;
  written := true;
  IF NOT p_keep_version OR p_record IS NULL THEN RETURN; END IF;
  v_time := floor(extract(epoch FROM clock_timestamp()) * 1000000)::bigint;
  SELECT max(v.written_us) INTO v_newest FROM ${s}.record_versions v WHERE v.key = p_key;
  IF v_newest >= v_time THEN v_time := v_newest + 1; END IF;
  INSERT INTO ${s}.record_versions (key, id, written_us, record)
    VALUES (p_key, p_version, v_time, p_record);
  IF p_keep IS NOT NULL THEN
    DELETE FROM ${s}.record_versions v WHERE v.key = p_key AND v.written_us < (
      SELECT k.written_us FROM ${s}.record_versions k WHERE k.key = p_key
        ORDER BY k.written_us DESC OFFSET p_keep - 1 LIMIT 1);
  END IF;
  IF p_max_age_ms IS NOT NULL THEN
    DELETE FROM ${s}.record_versions v
      WHERE v.key = p_key AND v.written_us < v_time - p_max_age_ms * 1000;
  END IF;
END
`;
  const tag = dollarTag(body);
  return `CREATE OR REPLACE FUNCTION ${s}.compare_and_set(
  p_key bytea, p_seen text, p_version text, p_record text,
  p_keep_version boolean, p_keep integer, p_max_age_ms bigint,
  OUT written boolean, OUT current_version text, OUT current_record text
) LANGUAGE plpgsql AS ${tag}${body}${tag}`;
}

/** A dollar-quote tag the body does not contain (a schema's name could hold `$dd$`). */
function dollarTag(body: string): string {
  for (let n = 0; ; n += 1) {
    const tag = n === 0 ? '$dd$' : `$dd${n}$`;
    if (!body.includes(tag)) return tag;
  }
}
