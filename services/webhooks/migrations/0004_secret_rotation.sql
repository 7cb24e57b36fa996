-- Secret rotation (POST /webhooks/{id}/rotate-secret): the secret replaced stays valid for a while beside the new
-- one (each delivery is signed with both until it expires, as Standard Webhooks allows), so a receiver can switch
-- without dropping a delivery. One previous secret at most; NULL when none is valid.
ALTER TABLE webhooks.endpoints
  ADD COLUMN previous_secret text,
  ADD COLUMN previous_secret_expires_at timestamptz,
  ADD CONSTRAINT endpoints_previous_secret_expiry CHECK ((previous_secret IS NULL) = (previous_secret_expires_at IS NULL));
