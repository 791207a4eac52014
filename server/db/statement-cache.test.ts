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

  test('hands rows over as better-sqlite3 would: keys in column order, the last of two equal names, every kind of value', () => {
    const db = withStatementCache(raw);
    raw.exec("CREATE TABLE k (id INTEGER PRIMARY KEY, n REAL, s TEXT, b BLOB, z TEXT); INSERT INTO k VALUES (1, 1.5, 'ไทย', x'0102', NULL), (2, -3, '', x'', 'x')");
    const text = "SELECT k.z, k.id, k.n, k.s, k.b, k.s AS z, 'lit' AS \"with space\" FROM k ORDER BY id";
    const expected = raw.prepare(text).all();
    const rows = db.prepare(text).all();
    expect(rows).toEqual(expected);
    expect(rows.map((r) => Object.keys(r as object))).toEqual(expected.map((r) => Object.keys(r as object)));
    expect(db.prepare(text).get()).toEqual(expected[0]);
    expect([...db.prepare(text).iterate()]).toEqual(expected);
    expect(db.prepare('SELECT id FROM k WHERE id = ?').get(9)).toBeUndefined();
    expect(db.prepare('SELECT id FROM k WHERE id > ?').all(9)).toEqual([]);
  });

  test('a column named __proto__ is a key of the row, not its prototype', () => {
    const db = withStatementCache(raw);
    const row = db.prepare('SELECT 7 AS "__proto__", 8 AS b').get() as Record<string, unknown>;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.keys(row)).toEqual(['__proto__', 'b']);
    expect(row.b).toBe(8);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe(7);
  });

  test('a write that returns rows hands them over, and a write that returns none reports its changes', () => {
    const db = withStatementCache(raw);
    expect(db.prepare('INSERT INTO t (v) VALUES (?) RETURNING id, v').all('r')).toEqual([{ id: 1, v: 'r' }]);
    expect(db.prepare('UPDATE t SET v = ? WHERE id = ?').run('s', 1)).toMatchObject({ changes: 1 });
    expect(db.prepare('SELECT v FROM t').all()).toEqual([{ v: 's' }]);
  });

  test('close closes the database', () => {
    const db = withStatementCache(raw);
    db.prepare('SELECT 1').get();
    db.close();
    expect(raw.open).toBe(false);
  });
});
