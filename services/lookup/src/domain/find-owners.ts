// The owner endpoints of issue 37: an owner's detail, its properties, owners by name. No req/res here: criteria in,
// a page (of records, or of owners' JSON) or an ApiError out. An id merged into another owner answers as that one.
import { entityNameKey, nameKey } from '@pra/core/address';
import type { OwnerSearchQuery } from '@pra/core/contracts';
import { notFound } from '@pra/core/errors';
import type { OwnerStore } from '../data/owner-queries.js';
import { pageOrNotFound } from './find-records.js';
import { LookupDeadline } from './lookup-deadline.js';
import type { RecordPage } from './record-page.js';

/** The owner `id` answers as, or a 404 naming it (an id no owner ever had). */
async function currentOrNotFound(owners: OwnerStore, id: number, run: LookupDeadline): Promise<number> {
  const current = await run.run(() => owners.current(id));
  if (current === null) throw notFound(`No owner with id ${id}`);
  return current;
}

/** One owner's detail, as a page of one (1 credit). */
export async function findOwnerDetail(
  owners: OwnerStore,
  id: number,
  deadlineMs: number,
  run = new LookupDeadline(deadlineMs),
): Promise<RecordPage> {
  const current = await currentOrNotFound(owners, id, run);
  const rows = await run.run(() => owners.details([current]));
  if (rows.length === 0) throw notFound(`No owner with id ${id}`);
  return { rows, total: 1, page: 1, pagesize: 1 };
}

/** A page of one owner's properties, by property id. */
export async function findByOwnerId(
  owners: OwnerStore,
  q: { ownerId: number; page: number; pagesize: number },
  deadlineMs: number,
  run = new LookupDeadline(deadlineMs),
): Promise<RecordPage> {
  const current = await currentOrNotFound(owners, q.ownerId, run);
  const { rows, total } = await run.run(() => owners.propertiesOf(current, q.pagesize, (q.page - 1) * q.pagesize));
  return pageOrNotFound({ rows, total }, q.page, q.pagesize, `owner id ${q.ownerId}`);
}

/**
 * The two spellings a name is searched under: as the lookups key names ("SMITH JOHN"), and as entities' names are
 * keyed ("The Acme Holdings, L.L.C." is "ACME HOLDINGS LLC").
 */
export function ownerNamePrefixes(name: string): [string, string] {
  return [nameKey(name), entityNameKey(name)];
}

/** A page of owners whose name starts with the one asked, most parcels first. */
export async function findOwners(
  owners: OwnerStore,
  q: Pick<OwnerSearchQuery, 'name' | 'state' | 'page' | 'pagesize'>,
  deadlineMs: number,
  run = new LookupDeadline(deadlineMs),
): Promise<RecordPage> {
  const { rows, total } = await run.run(() =>
    owners.search(ownerNamePrefixes(q.name), q.state ?? null, q.pagesize, (q.page - 1) * q.pagesize),
  );
  if (total === 0) throw notFound(`No owners found for name '${q.name}'`);
  return pageOrNotFound({ rows, total }, q.page, q.pagesize, `owner name '${q.name}'`);
}
