-- Uploaded JavaScript source maps (POST /api/sourcemaps/upload); the bytes live in the object
-- store under object_key (content-addressed). One row per map: the generated file's served path
-- in a release, and the debug id when the build carries one (matched whatever the release).
CREATE TABLE source_map_files (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  project_id     uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  -- The app version clients report; '' only for a map uploaded with a debug id and no release.
  release        text NOT NULL CONSTRAINT source_map_files_release_length CHECK (char_length(release) <= 200),
  -- Served path of the generated .js, origin and query removed: '/assets/main.4f3a.js'.
  path           text NOT NULL CONSTRAINT source_map_files_path_format CHECK (char_length(path) BETWEEN 1 AND 1024 AND left(path, 1) = '/'),
  -- 32 lowercase hex (a UUID without dashes), or ''.
  debug_id       text NOT NULL DEFAULT '' CONSTRAINT source_map_files_debug_id_format CHECK (debug_id ~ '^([0-9a-f]{32})?$'),
  object_key     text NOT NULL CONSTRAINT source_map_files_object_key_length CHECK (char_length(object_key) BETWEEN 1 AND 1024),
  size           bigint NOT NULL CONSTRAINT source_map_files_size CHECK (size >= 0),
  content_sha256 text NOT NULL CONSTRAINT source_map_files_content_sha256_format CHECK (content_sha256 ~ '^[0-9a-f]{64}$'),
  uploaded_at    timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT source_map_files_identified CHECK (release <> '' OR debug_id <> ''),
  CONSTRAINT source_map_files_release_path_key UNIQUE (project_id, release, path)
);
CREATE INDEX source_map_files_debug_id_idx ON source_map_files (project_id, debug_id) WHERE debug_id <> '';
