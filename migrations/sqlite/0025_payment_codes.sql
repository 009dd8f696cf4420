-- How a debtor pays a charge from a message: its boleto (the barcode; the digitable line is
-- computed from it) and its Pix "copia e cola". An incoming payment is matched to its charge by
-- the barcode or the Pix reference (txid), within the organization.
ALTER TABLE charges ADD COLUMN boleto_barcode TEXT;
ALTER TABLE charges ADD COLUMN boleto_url TEXT;
ALTER TABLE charges ADD COLUMN pix_emv TEXT;
ALTER TABLE charges ADD COLUMN pix_txid TEXT;
CREATE INDEX charges_org_boleto ON charges (organization_id, boleto_barcode) WHERE boleto_barcode IS NOT NULL;
CREATE INDEX charges_org_pix_txid ON charges (organization_id, pix_txid) WHERE pix_txid IS NOT NULL;
