import SQLite from 'better-sqlite3';
import { withStatementCache } from './index';

describe('the SQLite statement cache', () => {
  let raw: SQLite.Database;
  beforeEach(() => {
    raw = new SQLite(':memory:');
    raw.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
  });
  afterEach(() => {
    if (raw.open) raw.close();
  });

  test('hands back the statement prepared before for the same SQL, which runs again with other parameters', () => {
    const db = withStatementCache(raw);
    const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
    insert.run('a');
    expect(db.prepare('INSERT INTO t (v) VALUES (?)')).toBe(insert);
    db.prepare('INSERT INTO t (v) VALUES (?)').run('b');
    expect(db.prepare('SELECT v FROM t ORDER BY id').all()).toEqual([{ v: 'a' }, { v: 'b' }]);
  });

  test('keeps the most recently used statements and drops the least recently used beyond its size', () => {
    const db = withStatementCache(raw, 2);
    const a = db.prepare('SELECT 1 AS a');
    const b = db.prepare('SELECT 2 AS b');
    expect(db.prepare('SELECT 1 AS a')).toBe(a); // a is now the most recent
    db.prepare('SELECT 3 AS c'); // evicts b
    expect(db.prepare('SELECT 1 AS a')).toBe(a);
    expect(db.prepare('SELECT 2 AS b')).not.toBe(b);
  });

  test('a cached statement follows a schema change (SQLite prepares it again)', () => {
    const db = withStatementCache(raw);
    db.prepare("INSERT INTO t (v) VALUES ('x')").run();
    const all = db.prepare('SELECT * FROM t');
    expect(all.all()).toEqual([{ id: 1, v: 'x' }]);
    raw.exec("ALTER TABLE t ADD COLUMN w TEXT DEFAULT 'y'");
    expect(db.prepare('SELECT * FROM t').all()).toEqual([{ id: 1, v: 'x', w: 'y' }]);
  });

  test('close closes the database', () => {
    const db = withStatementCache(raw);
    db.prepare('SELECT 1').get();
    db.close();
    expect(raw.open).toBe(false);
  });
});
