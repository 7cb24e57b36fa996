import type { Pool } from '@pra/platform';
/** A county file's records, imported and re-imported with other owners: each re-import emits change events. */
export declare class CountyFile {
    readonly name: string;
    readonly zip: string;
    private readonly dir;
    private files;
    readonly source: string;
    private readonly mappingFile;
    constructor(name: string, zip?: string);
    /** Imports the file with these owners (one record per owner, by index). */
    import(pool: Pool, owners: readonly string[]): Promise<import("@pra/ingest/import").ImportSummary>;
    remove(): void;
}
