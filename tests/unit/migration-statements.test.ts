/** How a migration's text is cut into statements (server/db/migrate.ts splitStatements). */
import { splitStatements } from '../../server/db/migrate.ts';

describe('splitStatements', () => {
  test('a statement ends with a semicolon at the end of a line; comment lines and blank ends are dropped', () => {
    const sql = `
-- a comment
CREATE TABLE a (id int,
  -- a comment inside
  b text DEFAULT 'x;y');
ALTER TABLE a ADD COLUMN c int;
`;
    expect(splitStatements(sql)).toEqual(["CREATE TABLE a (id int,\n  b text DEFAULT 'x;y')", 'ALTER TABLE a ADD COLUMN c int']);
  });

  test("a function's body between $$ lines keeps its semicolons, and its comment lines", () => {
    const sql = `CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- kept: part of the body
  UPDATE t SET n = n + 1;
  RETURN NULL;
END
$$;
CREATE TRIGGER tr AFTER INSERT ON a FOR EACH STATEMENT EXECUTE FUNCTION f();`;
    expect(splitStatements(sql)).toEqual([
      'CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN\n  -- kept: part of the body\n  UPDATE t SET n = n + 1;\n  RETURN NULL;\nEND\n$$',
      'CREATE TRIGGER tr AFTER INSERT ON a FOR EACH STATEMENT EXECUTE FUNCTION f()',
    ]);
  });

  test('a last statement without its semicolon is still one', () => {
    expect(splitStatements('SELECT 1;\nSELECT 2')).toEqual(['SELECT 1', 'SELECT 2']);
  });
});
