// What the runner hands the k6 scripts (written by loadtests/run.ts, read with open() in the init context).

/** Real records of the target's data set, drawn at random: what the scenarios ask for. */
export interface Fixtures {
  /** line1: the display street line ("3526 HIGH ST"); unit: the unit id kept apart from it, '' when none or already in line1. */
  addresses: { line1: string; unit: string; city: string; state: string; zip: string }[];
  owners: { lastName: string; state: string }[];
  parcels: { apn: string; state: string }[];
  propertyIds: number[];
  /** Where records are: centres of area searches. */
  places: { latitude: number; longitude: number }[];
}

export interface Account {
  accountId: number;
  key: string;
  tier: string;
  /** Credits granted at provisioning. */
  credits: number;
  /** Requests admitted per rolling minute and calls per day, as the gateway enforces them. */
  ratePerMinute: number;
  dailyQuota: number | null;
}

export interface Provisioned {
  /** Key with effectively unlimited credits and rate: mixed, soak, smoke. */
  main?: Account;
  /** One account per tier at its default limits: rate-limit. */
  tiers?: Account[];
  /** An account with exactly `credits` credits and no rate limit in the way: credit-exhaustion. */
  exhaust?: Account;
}
