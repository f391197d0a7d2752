/**
 * Lottery names and descriptions in Bengali beside the English ones (docs/rules/lotteries-and-sales.md#2-names-in-english-and-bengali),
 * and what a purchase stores besides the columns of 001 (docs/rules/lotteries-and-sales.md#7-buying-a-ticket).
 * An empty Bengali text means "not given": pages show the English one.
 */
export const sql = /* sql */ `
ALTER TABLE lotteries ADD COLUMN name_bn text NOT NULL DEFAULT '';
ALTER TABLE lotteries ADD COLUMN description_bn text NOT NULL DEFAULT '';

-- The player's national ID number as he gave it with the purchase ('' when not given).
ALTER TABLE transactions ADD COLUMN nid text NOT NULL DEFAULT '';
-- A TrxID is stored upper-case (the schema normalises it), so the UNIQUE of 001 holds whatever case was typed.
ALTER TABLE transactions ADD CONSTRAINT transactions_trx_id_format CHECK (trx_id IS NULL OR trx_id ~ '^[A-Z0-9]{8,20}$');
CREATE INDEX audit_log_entity ON audit_log (entity, entity_id, created_at);
`;
