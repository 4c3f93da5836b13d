-- Up Migration
-- A key rotation is a new secret for the same actor. The actor's one mapping (role, permissions,
-- capabilities, studio and artist scopes) moves to the new key, so everything keyed by the actor
-- (submissions, idempotency records, events) stays the key's own. The old key, while its overlap
-- lasts, authenticates as the same actor by following replaced_by to the key that holds the mapping.

-- The key whose mapping `p_key_id` uses: itself, or the newest key of its rotation chain that has one.
CREATE FUNCTION api_key_mapping_subject(p_key_id text) RETURNS text LANGUAGE sql STABLE AS $$
  WITH RECURSIVE chain(key_id, depth) AS (
    SELECT p_key_id, 0
    UNION ALL
    SELECT k.replaced_by, c.depth + 1 FROM api_keys k JOIN chain c ON k.key_id = c.key_id
    WHERE k.replaced_by IS NOT NULL AND c.depth < 50
  )
  SELECT c.key_id FROM chain c
  JOIN actor_mappings m ON m.credential_kind = 'api_key' AND m.credential_subject = c.key_id AND m.credential_issuer = ''
  ORDER BY c.depth LIMIT 1
$$;

CREATE OR REPLACE FUNCTION portal_rotate_key(p_old_key_id text, p_organization_id text, p_by text, p_overlap_seconds integer,
  p_key_id text, p_prefix text, p_secret_hash bytea)
RETURNS timestamptz LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  old api_keys%ROWTYPE;
  mapping actor_mappings%ROWTYPE;
  ends timestamptz;
BEGIN
  SELECT * INTO old FROM api_keys WHERE key_id = p_old_key_id AND organization_id = p_organization_id
    AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now()) AND replaced_by IS NULL FOR UPDATE;
  IF NOT FOUND THEN RAISE EXCEPTION 'not_found' USING ERRCODE = 'P0002'; END IF;
  SELECT * INTO mapping FROM actor_mappings WHERE credential_kind = 'api_key' AND credential_subject = p_old_key_id
    AND credential_issuer = '' AND active FOR UPDATE;
  -- Only what the portal could have made itself is rotated here (an operator's key stays the operator's).
  IF NOT FOUND OR cardinality(mapping.permissions) = 0 OR NOT (mapping.permissions <@ portal_self_service_permissions())
     OR mapping.is_human_operator THEN
    RAISE EXCEPTION 'permission_not_selectable' USING ERRCODE = '22023';
  END IF;
  ends := CASE WHEN p_overlap_seconds <= 0 THEN now() ELSE least(coalesce(old.expires_at, 'infinity'), now() + make_interval(secs => p_overlap_seconds)) END;
  INSERT INTO api_keys (key_id, prefix, secret_hash, label, organization_id, owner_subject, created_by, expires_at)
  VALUES (p_key_id, p_prefix, p_secret_hash, old.label, p_organization_id, p_by, p_by, old.expires_at);
  -- The same actor, every field kept: only the credential it is reached by changes.
  UPDATE actor_mappings SET credential_subject = p_key_id, updated_at = now() WHERE actor_id = mapping.actor_id;
  UPDATE api_keys SET expires_at = ends, replaced_by = p_key_id, revoked_at = CASE WHEN p_overlap_seconds <= 0 THEN now() ELSE NULL END
  WHERE key_id = p_old_key_id;
  INSERT INTO access_audit (action, subject, detail)
  VALUES ('portal_key_rotated', p_by, jsonb_build_object('keyId', p_old_key_id, 'newKeyId', p_key_id, 'actorId', mapping.actor_id,
    'organizationId', p_organization_id, 'overlapSeconds', p_overlap_seconds, 'previousExpiresAt', ends));
  RETURN ends;
END $$;

-- Down Migration
DROP FUNCTION api_key_mapping_subject(text);
CREATE OR REPLACE FUNCTION portal_rotate_key(p_old_key_id text, p_organization_id text, p_by text, p_overlap_seconds integer,
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
