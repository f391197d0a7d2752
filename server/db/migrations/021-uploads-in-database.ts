/**
 * A picture's bytes are kept in its row, so that every app instance serves every picture and a backup of the database
 * holds them all (docs/decisions/040-uploads-in-the-database.md). Rows from before keep their file under
 * DATA_DIR/uploads until the app's start moves it in (server/uploads/service.ts adoptUploadFiles); until then, and when
 * its file is gone, it is missing (404).
 */
export const sql = /* sql */ `
ALTER TABLE uploads ADD COLUMN data bytea;
`;
