// The CPU side of an import, batch by batch, in a worker thread (or in the main thread for a small file): rows to
// parcels (each address parsed once), then, once the main thread has read the batch's import state, the batch's
// records as COPY data and its new import state. The main thread only reads the file's records and talks to the
// database; see import-csv.ts for the order of things.
import { BinaryCopyWriter } from '../data/copy-binary.js';
import { buildCopyChunks, type CopyBytes, type CopyChunks, transferableChunks } from '../data/copy-rows.js';
import { type ParcelRef, parcelRefOf } from '../data/parcels.js';
import type { PropertyInput } from '../domain/property-input.js';
import { idsByRecord, type OwnerMention, recordMentions } from '../domain/owner-keys.js';
import { type CellMask, cellMask, parseRecord } from './csv-records.js';
import {
  decodeState,
  upgradeStoredSales,
  digestBasis,
  encodeState,
  type FillOnlyField,
  type MappedField,
  type SpokenFor,
  joinParcel,
  mergeParcel,
  mergeRows,
  parcelIdentity,
  reimportParcel,
  reimportsToItself,
  sameContent,
  stateDigest,
  FILE_DIGEST_CHARS,
} from './import-merge.js';
import type { ChangeEventDraft } from '../data/change-events.js';
import { changeEventOf } from './change-parts.js';
import { type ZipEvidenceEntry, ZipEvidence } from '../domain/zip-evidence.js';
import {
  applyCompiled,
  type CompiledRules,
  compileRules,
  type FieldReport,
  latestDateOf,
  REASONS_KEPT,
  type RuleContext,
  subtractReport,
  reportOfRows,
  type Values,
} from './apply-rules.js';
import { type AddressIndexEntry, JoinedParcels } from './import-join.js';
import {
  type ParcelOptions,
  type SitePlace,
  sitePlace,
  toContribution,
  toParcel,
  zipEvidenceOf,
} from './import-row.js';
import type { Mapping } from './mapping.js';
import { mappingColumns } from './mapping-rules.js';

export interface WorkSetup {
  mapping: Mapping & { kind: 'property' };
  header: string[];
  source: string;
  now: string;
  /** What the file speaks for (import-merge.ts SpokenFor): the fields its mapping gives. */
  mapped: MappedField[];
  /** The fields its mapping gives only to a parcel that has none (rule option `fillOnly`). */
  fillOnly: FillOnlyField[];
  /** For a file joined on address: the joined parcels by their address key (see import-join.ts). */
  addressIndex?: AddressIndexEntry[];
  /**
   * The import emits change events (data/change-events.ts): 'created' for the parcels it adds, the parts changed for
   * those it rewrites. Not on the mapping's first load (import-store.ts mappingLoadedBefore): a first load of
   * millions would say only "everything is new", and a county's joined files, loaded right after its parcels, would
   * announce every parcel again as it is filled in.
   */
  emitEvents?: boolean;
}

/**
 * A batch's records as the reader read them: their text end to end (record i ends at ends[i]) and the line each
 * starts on. Three values to send to a worker thread, not a string per cell.
 */
export interface RowBatch {
  text: string;
  ends: Int32Array;
  lines: Int32Array;
}

export interface RowError {
  line: number;
  reason: string;
}

/** A batch's parcels as the main thread needs them to read their state: identity and what the file says. */
export interface ParsedBatch {
  identities: string[];
  fileDigests: string[];
  /** Each parcel as the registry knows it (its parcel id is looked up before its record is built). */
  parcels: ParcelRef[];
  errors: RowError[];
  /**
   * Values refused (dates and years that cannot be right, types that are not the API's) in rows that are not errors;
   * a joined file's rows the store lacks are errors the main thread finds later, and drops these of (import-csv.ts).
   */
  refusals: RowError[];
  /**
   * What each target made of the cells of the batch's rows that are not errors. A joined file's rows whose parcel the
   * store lacks are found later: the main thread takes them out (ImportWork.unreport), then keeps the first few
   * reasons (this report keeps them all).
   */
  report: FieldReport;
  /** A joined file: the lines of each parcel's rows (reported when the store lacks the parcel). */
  lines?: number[][];
}

/** A parcel of the batch whose stored state must be read: the file changed it, or an earlier batch wrote it. */
export interface StoredParcel {
  identity: string;
  propertyId: number;
  /** The stored input: its JSON text (encodeState). */
  input: string;
  /** An earlier batch of this import wrote it (rows of one parcel span batches): merged as rows of one file. */
  continued: boolean;
  /** An earlier batch of this import added it: its rows merging here emit no change event. */
  addedHere?: boolean;
}

export interface BuildRequest {
  batch: number;
  /** Parcels not in the store, with the ids reserved for them (consecutive from `firstId`). */
  added: string[];
  firstId: number;
  stored: StoredParcel[];
  /** The registry's parcel ids of the added parcels, then of the stored ones. */
  parcelIds: number[];
}

/**
 * A batch's owner ids, resolved by the main thread from its mentions: one per owner field of each record (owner-keys.ts
 * recordMentions), null where none.
 */
export interface OwnersResolved {
  batch: number;
  ownerIds: (number | null)[];
}

/**
 * What a batch writes. `C`: its records' COPY data as built (CopyChunks), or all as bytes when it comes from a worker
 * thread (CopyBytes: transferred, not copied).
 */
export interface BuiltBatch<C extends CopyChunks | CopyBytes = CopyChunks | CopyBytes> {
  added: string[];
  updated: string[];
  unchanged: string[];
  /** Ids of the updated properties: their rows are replaced. */
  replaceIds: number[];
  /** Records of the added and updated properties; null when the batch writes none. */
  chunks: C | null;
  /** records.import_state rows for the added parcels (STATE_COLUMNS), as binary COPY data; empty when none. */
  newState: Uint8Array;
  /** Import state of the updated parcels, and of unchanged ones whose file digest is now known. */
  stateUpdates: { identity: string; propertyId: number; fileDigest: string | null; input: string }[];
  fileDigestUpdates: { identity: string; fileDigest: string }[];
  /** The change events of the batch's writes (data/change-events.ts), with their records' new owner ids. */
  events: ChangeEventDraft[];
}

export const STATE_COLUMNS = 'source, identity, property_id, file_digest, input';
/** The fields of an import state row: the writer refuses a row of another count. */
const STATE_FIELDS = STATE_COLUMNS.split(',').length;
/**
 * An import state row's bytes besides its source, identity and state text: the field count, the fields' lengths, the
 * property id and a file digest (a row whose digest is NULL takes that much less).
 */
const STATE_ROW_BYTES = 2 + 4 * STATE_FIELDS + 8 + FILE_DIGEST_CHARS;

interface Parcel {
  input: PropertyInput;
  /** The input's state text (encodeState): what the file digest is of, and what a new parcel's state row stores. */
  state: string;
  fileDigest: string;
  lines: number[];
}

/**
 * What a batch's rows were read as (ImportWork.readRows): by row, its values and site, or the error that stopped it;
 * the values refused in them, each row's up to its `refusalsEnd`; and what the rules counted, every reason kept (the
 * parse keeps the first few of the rows that are not errors).
 */
interface RowsRead {
  rows: RowRead[];
  refusals: RowError[];
  report: FieldReport;
}

type RowRead =
  | {
      ok: true;
      values: Values;
      /** sitePlace(values): none for a joined file's row, which places no parcel. */
      site: SitePlace | null;
      refusalsEnd: number;
    }
  | {
      ok: false;
      error: unknown;
      /** The rules counted the row's cells (they are counted out of the report again): its record could be read. */
      counted: boolean;
      refusalsEnd: number;
    };

export class ImportWork {
  private readonly batches = new Map<number, Map<string, Parcel>>();
  /** Batches read for the ZIP evidence, kept for their parse (zipEvidence's `keep`), by their rows. */
  private readonly kept = new WeakMap<RowBatch, RowsRead>();
  /** A joined file's batches as read, parsed and not yet merged: the rows of parcels the store lacks are unreported. */
  private readonly joinedRows = new Map<number, RowBatch>();
  /** Batches merged, waiting for their owners' ids to be built. */
  private readonly pending = new Map<
    number,
    {
      out: BuiltBatch<CopyChunks>;
      ids: number[];
      inputs: PropertyInput[];
      parcelIds: number[];
      /** The change event of each record written (by its index in `ids`), null where it emits none. */
      events: (ChangeEventDraft | null)[];
    }
  >();
  private readonly byApn: boolean;
  private readonly spoken: SpokenFor;
  /** What a later row of a parcel says over the state this file's earlier rows left: it clears nothing. */
  private readonly continuing: SpokenFor;
  private readonly digestBasis: string;
  /** The cells of a record the mapping reads: those a record's text is parsed for. */
  private readonly cellsRead: CellMask;

  private readonly options: ParcelOptions;
  private readonly latestDate: string;
  private readonly joined: JoinedParcels | null;
  private readonly rules: CompiledRules;

  constructor(private readonly setup: WorkSetup) {
    this.byApn = setup.mapping.fields.apn !== undefined;
    this.spoken = { mapped: new Set(setup.mapped), fillOnly: new Set(setup.fillOnly) };
    this.continuing = { mapped: new Set(), fillOnly: this.spoken.fillOnly };
    this.digestBasis = digestBasis(this.spoken);
    const read = new Set(mappingColumns(setup.mapping));
    // A column named twice in the header: the last one, as compileRules reads it.
    this.cellsRead = cellMask(setup.header, read);
    const owner = setup.mapping.fields.ownerName ?? setup.mapping.fields.owner2Name;
    const seller = setup.mapping.fields.saleSeller;
    this.options = {
      ownerOrder: owner && 'column' in owner ? owner.order : undefined,
      sellerOrder: seller && 'column' in seller ? seller.order : undefined,
      apnSeparators: setup.mapping.apnKey === 'separators',
      // A roll without site ZIPs: its evidence, read first (zip-prescan.ts), comes through useZipEvidence.
      zipEvidence: null,
    };
    this.latestDate = latestDateOf(setup.now);
    this.rules = compileRules(setup.mapping.fields, setup.header);
    const join = setup.mapping.join;
    this.joined = join ? new JoinedParcels(join, setup.addressIndex ?? []) : null;
  }

  /**
   * A row's parcel: its identity, what the row says of it, and the owners it names past the fourth (ownersOf). `site`:
   * sitePlace(values) (none for a joined file).
   */
  private parcelOf(
    values: Values,
    site: SitePlace | null,
  ): { identity: string; input: PropertyInput; ref?: ParcelRef; ownersNotKept: readonly string[] } {
    if (this.joined) {
      const { input, ownersNotKept } = toContribution(values, this.setup.now, this.options);
      return { ...this.joined.find(values, input), input, ownersNotKept };
    }
    const { input, street, ownersNotKept } = toParcel(values, this.setup.now, this.options, site ?? undefined);
    return { identity: parcelIdentity(input, this.byApn, street), input, ownersNotKept };
  }

  /** The stored parcel with the file's over it. */
  private over(stored: PropertyInput, file: PropertyInput, continued: boolean): PropertyInput {
    if (this.joined) return joinParcel(stored, file, this.spoken, continued);
    // A field the file only fills keeps the stored value there too: the stored state may hold another file's.
    return continued ? mergeParcel(stored, file, this.continuing) : reimportParcel(stored, file, this.spoken);
  }

  /**
   * The cells of record r of a batch, in header order (those the mapping does not read are empty). The reader checked
   * the record: it parses, with the header's number of cells. `cells`: the reader's, when at hand (in the thread that
   * read them).
   */
  private recordAt(rows: RowBatch, r: number, cells?: readonly string[][]): readonly string[] {
    const read = cells?.[r];
    if (read !== undefined) return read;
    const parsed = parseRecord(
      rows.text.slice(r === 0 ? 0 : rows.ends[r - 1], rows.ends[r]),
      this.setup.mapping.delimiter,
      this.cellsRead,
    );
    if (!('fields' in parsed)) throw new Error(parsed.error);
    return parsed.fields;
  }

  /**
   * A batch's ZIP evidence (zip-evidence.ts), for a roll without site ZIPs, read before the import: the parcels
   * whose owner is mailed at the parcel itself, in a ZIP of the county. A row the import refuses is no evidence.
   * `keep`: what the batch's rows were read as is kept for its parse, which then reads them no more (a small file, in
   * the main thread, whose import sends the same batches again: import-csv.ts).
   */
  zipEvidence(rows: RowBatch, cells?: readonly string[][], keep = false): ZipEvidenceEntry[] {
    const read = this.readRows(rows, cells, keep);
    if (keep) this.kept.set(rows, read);
    const out: ZipEvidenceEntry[] = [];
    for (const row of read.rows) {
      if (!row.ok || row.site === null) continue;
      let evidence: ReturnType<typeof zipEvidenceOf>;
      try {
        evidence = zipEvidenceOf(row.site);
      } catch {
        continue; // a row the import reports (or places by the evidence): no evidence
      }
      if (!evidence) continue;
      const { street, zip } = evidence;
      const n = street.houseNumber === null ? Number.NaN : Number.parseInt(street.houseNumber, 10);
      if (Number.isFinite(n)) out.push([street.streetKey, n, zip]);
    }
    return out;
  }

  /**
   * A batch's rows read: each record's cells, the mapping's rules applied to them, and the parcel's site (sitePlace)
   * they give. `counting`: the rules count what they make of each target and list the values refused (a parse's
   * read; the evidence's alone needs neither).
   */
  private readRows(rows: RowBatch, cells: readonly string[][] | undefined, counting: boolean): RowsRead {
    const read: RowsRead = { rows: [], refusals: [], report: {} };
    const ctx: RuleContext = counting
      ? {
          line: 0,
          latestDate: this.latestDate,
          report: read.report,
          refusals: read.refusals,
          // Which rows are errors is known once they are merged (parse): every reason is kept until then.
          reasonsKept: Number.POSITIVE_INFINITY,
        }
      : { line: 0, latestDate: this.latestDate };
    for (let r = 0; r < rows.ends.length; r++) {
      ctx.line = rows.lines[r]!;
      read.rows.push(this.readRow(rows, r, cells, ctx, read.refusals));
    }
    return read;
  }

  private readRow(
    rows: RowBatch,
    r: number,
    cells: readonly string[][] | undefined,
    ctx: RuleContext,
    refusals: readonly RowError[],
  ): RowRead {
    let record: readonly string[];
    try {
      record = this.recordAt(rows, r, cells);
    } catch (error) {
      return { ok: false, error, counted: false, refusalsEnd: refusals.length };
    }
    let values: Values;
    try {
      values = applyCompiled(this.rules, record, ctx);
    } catch (error) {
      return { ok: false, error, counted: true, refusalsEnd: refusals.length };
    }
    // A joined file's row places no parcel: it names one another file placed (import-join.ts).
    if (this.joined) return { ok: true, values, site: null, refusalsEnd: refusals.length };
    try {
      return { ok: true, values, site: sitePlace(values), refusalsEnd: refusals.length };
    } catch (error) {
      return { ok: false, error, counted: true, refusalsEnd: refusals.length };
    }
  }

  /**
   * A refusal's reason for the owners of a row past the fourth: the record has places for four (owner1 to owner4), so
   * they are not stored, nor found by owner search; said by line and column with the values refused.
   */
  private ownersNotKept(names: readonly string[]): string {
    // The owner cells' sources as the rules quote them in their own reasons (a column, or a template).
    const sources = this.rules.rules.flatMap((r) =>
      (r.target === 'ownerName' || r.target === 'owner2Name') && r.source !== '' ? [r.source] : [],
    );
    const owners =
      names.length === 1
        ? `an owner past the fourth, ${names[0]},`
        : `${names.length} owners past the fourth, ${names.join(', ')},`;
    return `column ${sources.join(' / ') || 'ownerName'}: ${owners} a record has no place for (not stored)`;
  }

  /** The roll's ZIP evidence, all of it, before its first batch is parsed. */
  useZipEvidence(entries: readonly ZipEvidenceEntry[]): void {
    this.options.zipEvidence = new ZipEvidence(entries);
  }

  /**
   * Rows to parcels: rows of one parcel merge; a row that cannot be converted is an error of its line. `cells`: the
   * records' cells when the reader's are at hand (in the thread that read them), else read again from the text.
   */
  parse(batch: number, rows: RowBatch, cells?: readonly string[][]): ParsedBatch {
    const parcels = new Map<string, Parcel>();
    /** The rows of the parcels that have more than one in the batch, merged once all are read (mergeRows). */
    const rowsOf = new Map<string, PropertyInput[]>();
    const refs = new Map<string, ParcelRef>();
    const errors: RowError[] = [];
    // Read already, for the ZIP evidence (zipEvidence's `keep`), or now.
    const read = this.kept.get(rows) ?? this.readRows(rows, cells, true);
    this.kept.delete(rows);
    const refusals: RowError[] = [];
    /** Rows that are errors, with their cells: what the rules counted of them is taken out of the report. */
    const errorRows: { cells: readonly string[]; line: number }[] = [];
    for (let r = 0; r < read.rows.length; r++) {
      const row = read.rows[r]!;
      const line = rows.lines[r]!;
      try {
        if (!row.ok) throw row.error;
        const { identity, input, ref, ownersNotKept } = this.parcelOf(row.values, row.site);
        const prior = parcels.get(identity);
        if (ref) refs.set(identity, ref);
        if (prior) {
          const parcelRows = rowsOf.get(identity);
          if (parcelRows) parcelRows.push(input);
          else rowsOf.set(identity, [prior.input, input]);
          prior.lines.push(line);
        } else parcels.set(identity, { input, state: '', fileDigest: '', lines: [line] });
        // A value refused is one a kept row goes without: a row that is an error reports its error alone (as a tract
        // file's row does), and its cells count in no target.
        for (let i = r === 0 ? 0 : read.rows[r - 1]!.refusalsEnd; i < row.refusalsEnd; i++)
          refusals.push(read.refusals[i]!);
        if (ownersNotKept.length > 0) refusals.push({ line, reason: this.ownersNotKept(ownersNotKept) });
      } catch (err) {
        errors.push({ line, reason: (err as Error).message });
        if (row.ok || row.counted) errorRows.push({ cells: this.recordAt(rows, r, cells), line });
      }
    }
    // The rows that are errors counted out, the first few reasons of the others are kept. A joined file's rows the
    // store lacks are found later, by the main thread (unreport): its batch keeps every reason until then (one a
    // refused cell, whose refusal is listed anyway), and the main thread keeps the first few of the rest.
    subtractReport(
      read.report,
      reportOfRows(this.rules, errorRows, this.latestDate),
      this.joined ? Number.POSITIVE_INFINITY : REASONS_KEPT,
    );
    // A joined file's records are kept until the main thread has read which parcels the store lacks (unreport): their
    // text, read again for the cells of those few (not every row's cells, kept past the young generation).
    if (this.joined) this.joinedRows.set(batch, rows);
    // Rows of one parcel merge in the file's order; a field the file only fills: the first row's value, as in a later
    // batch (over).
    for (const [identity, parcelRows] of rowsOf)
      parcels.get(identity)!.input = this.joined
        ? mergeRows(parcelRows, this.spoken, true)
        : mergeRows(parcelRows, this.continuing, false);
    for (const p of parcels.values()) {
      p.state = encodeState(p.input);
      p.fileDigest = stateDigest(this.digestBasis, p.state);
    }
    this.batches.set(batch, parcels);
    return {
      identities: [...parcels.keys()],
      fileDigests: [...parcels.values()].map((p) => p.fileDigest),
      parcels: [...parcels].map(([identity, p]) => refs.get(identity) ?? this.parcelRef(identity, p.input)),
      errors,
      refusals,
      report: read.report,
      ...(this.joined ? { lines: [...parcels.values()].map((p) => p.lines) } : {}),
    };
  }

  /**
   * What the rules counted of the rows of a joined file's parcels the store lacks (import-csv.ts frontOf): those rows
   * are errors, and this is taken out of the batch's report. Asked before the batch's mentions(), which let its rows
   * go.
   */
  unreport(batch: number, identities: readonly string[]): FieldReport {
    const parcels = this.batches.get(batch);
    const kept = this.joinedRows.get(batch);
    if (!parcels || !kept) throw new Error(`import batch ${batch} of a joined file was not parsed`);
    const rowOfLine = new Map<number, number>();
    for (let r = 0; r < kept.lines.length; r++) rowOfLine.set(kept.lines[r]!, r);
    const records = identities.flatMap((id) =>
      (parcels.get(id)?.lines ?? []).map((line) => ({ line, cells: this.recordAt(kept, rowOfLine.get(line)!) })),
    );
    return reportOfRows(this.rules, records, this.latestDate);
  }

  /**
   * The parcel in the registry: by its county's APN when the row gives one; otherwise by its address identity, since
   * the APN such a record shows is a 32-bit hash of the address that two parcels (or a real APN) may share.
   */
  private parcelRef(identity: string, input: PropertyInput): ParcelRef {
    if (this.byApn && !input.apnDerived) return parcelRefOf(input);
    return { fips: input.fips, key: this.byApn ? parcelIdentity(input, false) : identity };
  }

  /**
   * The batch's owner mentions (one per owner field of each record written, owner-keys.ts), once its writes are
   * known, given its stored state: added parcels as they are; a stored one merged over its state
   * (unchanged when that changes nothing). A written state keeps the file's digest when a re-import of the same
   * parcel over it would change nothing, so that the next import of an unchanged file need not read it.
   */
  mentions(req: BuildRequest): (OwnerMention | null)[] {
    const parcels = this.batches.get(req.batch);
    if (!parcels) throw new Error(`import batch ${req.batch} was not parsed`);
    this.batches.delete(req.batch);
    this.joinedRows.delete(req.batch);
    const { source, now } = this.setup;
    const out: BuiltBatch<CopyChunks> = {
      added: req.added,
      updated: [],
      unchanged: [],
      replaceIds: [],
      chunks: null,
      newState: new Uint8Array(0),
      stateUpdates: [],
      fileDigestUpdates: [],
      events: [],
    };
    const ids: number[] = [];
    const inputs: PropertyInput[] = [];
    const parcelIds: number[] = [];
    const events: (ChangeEventDraft | null)[] = [];
    // Sized for its rows' text (a state is ~1 KB, more for a parcel with a long history): a writer that outgrows its
    // buffer doubles it, a copy into fresh memory.
    let stateBytes = 0;
    const sourceBytes = Buffer.byteLength(source);
    for (const identity of req.added)
      stateBytes +=
        STATE_ROW_BYTES + sourceBytes + Buffer.byteLength(identity) + Buffer.byteLength(parcels.get(identity)!.state);
    const newState = new BinaryCopyWriter(stateBytes);
    req.added.forEach((identity, i) => {
      const parcel = parcels.get(identity)!;
      ids.push(req.firstId + i);
      inputs.push(parcel.input);
      parcelIds.push(req.parcelIds[i]!);
      events.push(this.setup.emitEvents ? changeEventOf(req.firstId + i, null, parcel.input) : null);
      // In STATE_COLUMNS' order (import-state-columns.test.ts reads them back by name).
      newState.row(STATE_FIELDS);
      newState.text(source);
      newState.text(identity);
      newState.int8(req.firstId + i);
      // An added parcel's state is the file's parcel itself, which reimportsToItself mostly settles without the
      // merge (reimportParcel's: a joined file, whose merge is joinParcel, adds no parcel; import-csv.ts).
      const known = !this.joined && reimportsToItself(parcel.input);
      newState.text(known ? parcel.fileDigest : this.settled(parcel.input, parcel));
      newState.text(parcel.state);
    });
    req.stored.forEach((s, i) => {
      const parcel = parcels.get(s.identity)!;
      const stored = decodeState(s.input);
      const upgraded = upgradeStoredSales(stored);
      const merged = this.over(stored, parcel.input, s.continued);
      if (!upgraded && sameContent(merged, stored)) {
        out.unchanged.push(s.identity);
        // Known now to change nothing: the next import of this file finds it unchanged without reading the state.
        if (!s.continued) out.fileDigestUpdates.push({ identity: s.identity, fileDigest: parcel.fileDigest });
        return;
      }
      merged.lastModified = now;
      out.updated.push(s.identity);
      out.replaceIds.push(s.propertyId);
      ids.push(s.propertyId);
      inputs.push(merged);
      parcelIds.push(req.parcelIds[req.added.length + i]!);
      // Compared with the record as stored: a parcel an earlier batch of this import added was announced by it.
      events.push(this.setup.emitEvents && !s.addedHere ? changeEventOf(s.propertyId, stored, merged) : null);
      out.stateUpdates.push({
        identity: s.identity,
        propertyId: s.propertyId,
        fileDigest: this.settled(merged, parcel),
        input: encodeState(merged),
      });
    });
    // No rows, no COPY: a re-load's batches mostly add nothing.
    if (req.added.length > 0) out.newState = newState.finish();
    this.pending.set(req.batch, { out, ids, inputs, parcelIds, events });
    return recordMentions(ids, inputs);
  }

  /**
   * The batch's writes, once its owners are resolved (`ownerIds`: one per owner field of each record, as mentions()
   * listed them).
   */
  build(req: OwnersResolved): BuiltBatch<CopyChunks> {
    const pending = this.pending.get(req.batch);
    if (!pending) throw new Error(`import batch ${req.batch} was not merged`);
    this.pending.delete(req.batch);
    const { out, ids, inputs, parcelIds, events } = pending;
    const owners = idsByRecord(req.ownerIds);
    if (inputs.length > 0) out.chunks = buildCopyChunks(ids, inputs, parcelIds, this.setup.source, owners);
    events.forEach((e, i) => {
      if (!e) return;
      e.ownerIds = owners[i]!.filter((id): id is number => id !== null);
      out.events.push(e);
    });
    return out;
  }

  /** The file digest to keep with a written state: only when importing the parcel again over it changes nothing. */
  private settled(state: PropertyInput, file: Parcel): string | null {
    return sameContent(this.over(state, file.input, false), state) ? file.fileDigest : null;
  }
}

/** A built batch with its COPY data all as bytes (the owner tables' text as UTF-8), to transfer out of a worker. */
export function encodeBuilt(b: BuiltBatch<CopyChunks>): { built: BuiltBatch<CopyBytes>; transfer: ArrayBuffer[] } {
  const records = b.chunks ? transferableChunks(b.chunks) : null;
  // The state's bytes are a buffer of their own already (BinaryCopyWriter, or an empty array).
  const transfer = [...(records?.transfer ?? []), b.newState.buffer as ArrayBuffer];
  return { built: { ...b, chunks: records?.bytes ?? null }, transfer };
}
