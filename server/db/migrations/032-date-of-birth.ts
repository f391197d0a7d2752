/**
 * The player's date of birth (docs/rules/accounts-and-codes.md#2-sign-up): asked at sign-up, where under 18 is refused;
 * shown to staff on the user's page. Accounts made before it was asked, and those staff create, have none (NULL). A
 * calendar day, not an instant: `date`, read back as its text `YYYY-MM-DD` (server/db/index.ts).
 */
export const sql = /* sql */ `
ALTER TABLE users ADD COLUMN date_of_birth date CHECK (date_of_birth IS NULL OR date_of_birth >= DATE '1900-01-01');
`;
