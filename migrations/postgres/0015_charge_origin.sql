-- Where a charge comes from: made on its own (direct), or as an agreement's installment or down
-- payment (agreement); the installments made before this column are marked from their agreements.
ALTER TABLE charges ADD COLUMN origin TEXT COLLATE "C" NOT NULL DEFAULT 'direct';
UPDATE charges SET origin = 'agreement' WHERE id IN (SELECT charge_id FROM agreement_installments);
