import { type Pool } from '@pra/shared/platform';
export declare const BILLING_MIGRATIONS_DIR: string;
export declare function migrateBilling(pool: Pool, log?: (line: string) => void): Promise<{
    applied: string[];
}>;
