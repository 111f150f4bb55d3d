// An entity's automatic name, fixed once (issue 40 item 7). Entities made before migration 13
// carry none; the first re-analysis of one of their media freezes the name they were shown until
// then (from their first appearance, before that media's appearances are replaced), so that
// renumbered speakers rename nobody.
import type { Sql } from '../store/sql.ts';
import { APPEARANCE_COLUMNS, APPEARANCE_FROM, entityName, type AppearanceRow } from './entities.store.ts';

/** Inside the transaction that replaces a media's appearances, before it deletes them. */
export async function freezeAutoNames(tx: Sql, entityIds: readonly string[]): Promise<void> {
  for (const id of new Set(entityIds)) {
    const e = await tx.get<{ label: string | null; auto_name: string | null }>('SELECT label, auto_name FROM entities WHERE id = ?', id);
    if (!e || e.auto_name) continue;
    const rows = await tx.all<AppearanceRow>(`SELECT ${APPEARANCE_COLUMNS} FROM ${APPEARANCE_FROM} WHERE a.entity_id = ?`, id);
    // No appearance yet (a link made this run only): the name waits for a later analysis.
    if (rows.length === 0) continue;
    await tx.run('UPDATE entities SET auto_name = ? WHERE id = ? AND auto_name IS NULL', entityName(null, rows), id);
  }
}
