/**
 * The schema cd-service gave its database before it kept counts (schema version 0): its table
 * `cds` also restated the text and year rules as CHECKs, as every table made before they went
 * does.
 */
export const VERSION_0_SCHEMA = `
CREATE TABLE IF NOT EXISTS cds (
  id TEXT PRIMARY KEY NOT NULL,
  title TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  artist TEXT NOT NULL CHECK (length(artist) BETWEEN 1 AND 200),
  genre TEXT NOT NULL CHECK (length(genre) BETWEEN 1 AND 200),
  release_year INTEGER NOT NULL CHECK (release_year >= 1800),
  artist_key TEXT NOT NULL,
  genre_key TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS cds_title_id ON cds (title, id);
CREATE INDEX IF NOT EXISTS cds_artist_key_title_id ON cds (artist_key, title, id);
CREATE INDEX IF NOT EXISTS cds_genre_key_title_id ON cds (genre_key, title, id);
CREATE INDEX IF NOT EXISTS cds_artist_title_id ON cds (artist, title, id);
CREATE INDEX IF NOT EXISTS cds_release_year_title_id ON cds (release_year, title, id);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) STRICT;
`;
