-- Up Migration
-- The partner portal (issue 24): people of a partner organization (permission
-- partner_api_keys:manage, granted only by an operator's `npm run iam -- map`) create, rotate and
-- revoke their organization's API keys.
--
-- Keys gain an expiry (optional at create; set by a rotation's overlap), who created them, and
-- when they were last used.
ALTER TABLE api_keys
  ADD COLUMN expires_at   timestamptz,
  ADD COLUMN created_by   text,
  ADD COLUMN last_used_at timestamptz,
  ADD COLUMN replaced_by  text;
CREATE INDEX api_keys_organization ON api_keys (organization_id, created_at DESC);

-- Portal sessions and sign-in links live beside the console's, told apart by surface.
ALTER TABLE console_sessions ADD COLUMN surface text NOT NULL DEFAULT 'console' CHECK (surface IN ('console', 'portal'));
ALTER TABLE console_signin_codes ADD COLUMN surface text NOT NULL DEFAULT 'console' CHECK (surface IN ('console', 'portal'));

-- The API connects as the least-privilege role, which may only read api_keys and actor_mappings:
-- a compromised API must not mint an operator's mapping. The portal's writes go through these
-- three functions instead, which run as their owner and can only make what a partner may make:
-- an API key of the partner role, self-service, with permissions from the self-service set, in the
-- organization the caller names. The caller (the API) has checked the person's session and
-- permission; the functions check the rest. Every call writes its audit line (never the secret).
CREATE FUNCTION portal_self_service_permissions() RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY['studios:read', 'artists:read', 'search:read', 'portfolios:read', 'designs:read', 'portfolio_intake:stage']::text[]
$$;

CREATE FUNCTION portal_create_key(p_key_id text, p_prefix text, p_secret_hash bytea, p_label text, p_organization_id text,
  p_created_by text, p_expires_at timestamptz, p_permissions text[])
RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  IF cardinality(p_permissions) = 0 OR NOT (p_permissions <@ portal_self_service_permissions()) THEN
    RAISE EXCEPTION 'permission_not_selectable' USING ERRCODE = '22023';
  END IF;
  INSERT INTO api_keys (key_id, prefix, secret_hash, label, organization_id, owner_subject, created_by, expires_at)
  VALUES (p_key_id, p_prefix, p_secret_hash, p_label, p_organization_id, p_created_by, p_created_by, p_expires_at);
  INSERT INTO actor_mappings (actor_id, credential_kind, credential_subject, credential_issuer, role, permissions, organization_id, self_service)
  VALUES ('partner-' || p_key_id, 'api_key', p_key_id, '', 'partner', p_permissions, p_organization_id, true);
  INSERT INTO access_audit (action, subject, detail)
  VALUES ('portal_key_created', p_created_by, jsonb_build_object('keyId', p_key_id, 'organizationId', p_organization_id, 'permissions', p_permissions, 'expiresAt', p_expires_at));
END $$;

-- A new key with the old one's name and permissions; the old one keeps working until the overlap
-- ends (0: revoked at once). Returns the old key's new expiry; raises not_found for a key that is
-- not the organization's, or no longer usable.
CREATE FUNCTION portal_rotate_key(p_old_key_id text, p_organization_id text, p_by text, p_overlap_seconds integer,
  p_key_id text, p_prefix text, p_secret_hash bytea)
RETURNS timestamptz LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  old api_keys%ROWTYPE;
  perms text[];
  ends timestamptz;
BEGIN
  SELECT * INTO old FROM api_keys WHERE key_id = p_old_key_id AND organization_id = p_organization_id
    AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now()) AND replaced_by IS NULL FOR UPDATE;
  IF NOT FOUND THEN RAISE EXCEPTION 'not_found' USING ERRCODE = 'P0002'; END IF;
  SELECT permissions INTO perms FROM actor_mappings WHERE credential_kind = 'api_key' AND credential_subject = p_old_key_id AND active;
  -- Only what the portal could have made itself is rotated here (an operator's key stays the operator's).
  IF perms IS NULL OR cardinality(perms) = 0 OR NOT (perms <@ portal_self_service_permissions()) THEN
    RAISE EXCEPTION 'permission_not_selectable' USING ERRCODE = '22023';
  END IF;
  ends := CASE WHEN p_overlap_seconds <= 0 THEN now() ELSE least(coalesce(old.expires_at, 'infinity'), now() + make_interval(secs => p_overlap_seconds)) END;
  INSERT INTO api_keys (key_id, prefix, secret_hash, label, organization_id, owner_subject, created_by, expires_at)
  VALUES (p_key_id, p_prefix, p_secret_hash, old.label, p_organization_id, p_by, p_by, old.expires_at);
  INSERT INTO actor_mappings (actor_id, credential_kind, credential_subject, credential_issuer, role, permissions, organization_id, self_service)
  VALUES ('partner-' || p_key_id, 'api_key', p_key_id, '', 'partner', perms, p_organization_id, true);
  UPDATE api_keys SET expires_at = ends, replaced_by = p_key_id, revoked_at = CASE WHEN p_overlap_seconds <= 0 THEN now() ELSE NULL END
  WHERE key_id = p_old_key_id;
  INSERT INTO access_audit (action, subject, detail)
  VALUES ('portal_key_rotated', p_by, jsonb_build_object('keyId', p_old_key_id, 'newKeyId', p_key_id, 'organizationId', p_organization_id, 'overlapSeconds', p_overlap_seconds, 'previousExpiresAt', ends));
  RETURN ends;
END $$;

-- Revoked at once; false when the key is not the organization's or was revoked already.
CREATE FUNCTION portal_revoke_key(p_key_id text, p_organization_id text, p_by text)
RETURNS boolean LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
  UPDATE api_keys SET revoked_at = now() WHERE key_id = p_key_id AND organization_id = p_organization_id AND revoked_at IS NULL;
  IF NOT FOUND THEN RETURN false; END IF;
  INSERT INTO access_audit (action, subject, detail)
  VALUES ('portal_key_revoked', p_by, jsonb_build_object('keyId', p_key_id, 'organizationId', p_organization_id));
  RETURN true;
END $$;

-- Only the roles granted it (ensureAppRole: the app role) may call them; never PUBLIC.
REVOKE ALL ON FUNCTION portal_create_key(text, text, bytea, text, text, text, timestamptz, text[]) FROM PUBLIC;
REVOKE ALL ON FUNCTION portal_rotate_key(text, text, text, integer, text, text, bytea) FROM PUBLIC;
REVOKE ALL ON FUNCTION portal_revoke_key(text, text, text) FROM PUBLIC;

-- Down Migration
DROP FUNCTION portal_revoke_key(text, text, text);
DROP FUNCTION portal_rotate_key(text, text, text, integer, text, text, bytea);
DROP FUNCTION portal_create_key(text, text, bytea, text, text, text, timestamptz, text[]);
DROP FUNCTION portal_self_service_permissions();
ALTER TABLE console_signin_codes DROP COLUMN surface;
ALTER TABLE console_sessions DROP COLUMN surface;
DROP INDEX api_keys_organization;
ALTER TABLE api_keys DROP COLUMN replaced_by, DROP COLUMN last_used_at, DROP COLUMN created_by, DROP COLUMN expires_at;
