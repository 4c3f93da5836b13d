-- Up Migration
-- Public renditions of projected portfolio assets (and, later, designs): re-encoded images
-- without metadata, stored under content-addressed keys in the private media store and answered
-- by the API at /media/{media_id}/{name}.{ext}. A row exists only while its asset is published.
CREATE TABLE public_renditions (
  media_id     text NOT NULL,
  name         text NOT NULL CHECK (name IN ('large', 'small')),
  ext          text NOT NULL CHECK (ext IN ('webp')),
  content_type text NOT NULL CHECK (content_type IN ('image/webp')),
  width        integer NOT NULL CHECK (width > 0),
  height       integer NOT NULL CHECK (height > 0),
  size_bytes   integer NOT NULL CHECK (size_bytes > 0),
  sha256       text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  object_key   text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (media_id, name)
);
CREATE INDEX public_renditions_object_key ON public_renditions (object_key);

-- Takedown: who unpublished an asset, when and why (the audit row says it too).
ALTER TABLE portfolio_assets
  ADD COLUMN unpublished_at timestamptz,
  ADD COLUMN unpublished_by text,
  ADD COLUMN unpublish_reason text;

-- Down Migration
ALTER TABLE portfolio_assets DROP COLUMN unpublished_at, DROP COLUMN unpublished_by, DROP COLUMN unpublish_reason;
DROP TABLE public_renditions;
