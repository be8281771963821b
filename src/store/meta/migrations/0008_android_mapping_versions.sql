-- Android mapping files (symbol_files rows of kind 'proguard') may name the app version they
-- belong to (the upload's `version` field): a crash whose frames carry no R8 map id finds its
-- mapping by the app version it reports. One mapping per app version of a project; a later
-- upload naming the same version takes the version over.
ALTER TABLE symbol_files ADD COLUMN app_version text
  CONSTRAINT symbol_files_app_version CHECK (app_version IS NULL OR (kind = 'proguard' AND char_length(app_version) BETWEEN 1 AND 256));
CREATE UNIQUE INDEX symbol_files_mapping_version_key ON symbol_files (project_id, app_version) WHERE app_version IS NOT NULL;
