// A store database whose statements are counted (transactions, the stores' writes, are passed
// through uncounted): how the tests and bench/orphan-sweep.ts tell one query per batch from one
// per item.
import type { Sql } from '../src/store/sql.ts';

export function countedSql(db: Sql): { db: Sql; statements: () => number } {
  let n = 0;
  return {
    statements: () => n,
    db: {
      dialect: db.dialect,
      get: (sql, ...p) => (n++, db.get(sql, ...p)),
      all: (sql, ...p) => (n++, db.all(sql, ...p)),
      run: (sql, ...p) => (n++, db.run(sql, ...p)),
      transaction: (fn) => db.transaction(fn),
    },
  };
}
