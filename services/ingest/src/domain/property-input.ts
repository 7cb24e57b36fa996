// What every source (the synthetic generator, a county CSV import) produces for one property, before ids are
// assigned. The loader turns it into table rows and the pre-rendered record body.
import { OWNER_FIELDS } from '@pra/core/vocabulary';

export interface OwnerInput {
  firstName: string | null;
  lastName: string | null;
  fullName: string;
  /** Individual, Corporation, Trust, Government, Estate... as the owner-name parser types them. */
  type: string;
}

export { OWNER_FIELDS };
/** One of a record's owner fields, owner1 to owner4. */
export type OwnerField = (typeof OWNER_FIELDS)[number];
/** Something of each owner field of a record, in OWNER_FIELDS' order (a tuple of its length). */
export type ByOwnerField<T> = EachOf<typeof OWNER_FIELDS, T>;
/** A tuple of `T` as long as `Tuple` (a mapped type over a type parameter keeps the tuple). */
type EachOf<Tuple extends readonly unknown[], T> = { readonly [K in keyof Tuple]: T };
/** A record's owners, owner1 to owner4, null where it names fewer. */
export type RecordOwners = ByOwnerField<OwnerInput | null>;

/** Something of each owner field, in OWNER_FIELDS' order, as a tuple of their number (idsByRecord slices one). */
export const byOwnerField = <T>(of: (field: OwnerField, i: number) => T): ByOwnerField<T> =>
  OWNER_FIELDS.map(of) as unknown as ByOwnerField<T>;

/** A property's owners, owner1 to owner4. */
export const ownersInOrder = (p: Pick<PropertyInput, OwnerField>): RecordOwners => byOwnerField((f) => p[f]);

/** A row that names no owner. */
export const NO_OWNERS: Readonly<Pick<PropertyInput, OwnerField>> = {
  owner1: null,
  owner2: null,
  owner3: null,
  owner4: null,
};

export interface SaleInput {
  date: string; // YYYY-MM-DD
  price: number | null;
  /** The deed's type (GRANT DEED, ...); null when the source names none (no county roll here does). */
  documentType: string | null;
  /** When the deed was recorded (YYYY-MM-DD); null when the source gives no recording date. */
  recordingDate: string | null;
  buyerName: string | null;
  sellerName: string | null;
  /**
   * The deed's reference in the county's land records as the source writes it: a book and page (`793:231`,
   * `4119/0683`) or an instrument number; null when the source gives none. Two deeds of one day at one price are two
   * sales when their references differ (sale-merge.ts saleKey). A stored state written before sales had one decodes
   * without it (undefined), until upgradeStoredSales sets it null.
   */
  documentNumber: string | null;
}

export interface AssessmentYearInput {
  /** The tax year the values are for; null when the file names none (a mapping without taxYear). */
  taxYear: number | null;
  land: number | null;
  improvements: number | null;
  total: number | null;
  marketTotal: number | null;
  taxAmount: number | null;
}

export interface MortgageInput {
  amount: number | null;
  date: string | null;
  lender: string | null;
}

export interface PropertyInput {
  apn: string;
  apnOrig: string;
  /** The file gave no APN: `apn` is made up from the address (a 32-bit hash two parcels may share), not a key. */
  apnDerived?: true;
  /**
   * The parcel's key in the registry and the import state when it is not the stripped APN: the APN's parts as
   * written (`2-11`), for a county whose APNs stripping would merge (mapping option `apnKey: "separators"`).
   */
  parcelKey?: string;
  taxParcelId: string | null;
  fips: string;
  state: string;
  county: string;
  line1: string;
  line2: string;
  city: string;
  /** '' when the file gives none and no evidence names one. */
  zip: string;
  zip4: string;
  /**
   * Where `zip` comes from when the file did not give it (issue 36): the owner's mailing ZIP (the owner is mailed at
   * the parcel), or the ZIP the street segment's other parcels share; null when there is none. Absent: the file's.
   */
  zipSource?: 'owner-mailing' | 'street-segment' | null;
  latitude: number | null;
  longitude: number | null;
  censusTract: string | null;
  /** UNKNOWN_PROPERTY_TYPE when the files say none (a merge or a joined file fills it). */
  proptype: string;
  yearBuilt: number | null;
  lotSqft: number | null;
  lotAcres: number | null;
  subdivision: string | null;
  pool: boolean | null;
  vacant: boolean;
  buildingSqft: number | null;
  beds: number | null;
  bathsTotal: number | null;
  bathsPartial: number | null;
  owner1: OwnerInput | null;
  owner2: OwnerInput | null;
  /** The third and fourth owners the roll names (most name one or two). */
  owner3: OwnerInput | null;
  owner4: OwnerInput | null;
  /** The owner's mailing address; zip4 only when the file gives a ZIP+4. */
  mailing: { line1: string; city: string; state: string; zip: string; zip4?: string } | null;
  /** Current assessment; null when the county has none for this parcel. */
  assessment:
    | (AssessmentYearInput & {
        avmValue: number | null;
        avmDate: string | null;
        rentalEstimate: number | null;
        rentalSource: 'property' | 'area_median_acs_2024' | null;
      })
    | null;
  /** Older years, newest first (the current year is not repeated here). */
  assessmentHistory: AssessmentYearInput[];
  /** Newest first; sales[0] is the last sale. */
  sales: SaleInput[];
  /** Newest first; mortgages[0] is the current one. */
  mortgages: MortgageInput[];
  lastModified: string; // ISO date-time
}

export interface TractInput {
  tract: string;
  vintageYear: number;
  source: string;
  medianAge: number | null;
  medianGrossRent: number | null;
  medianHomeValue: number | null;
  medianHouseholdIncome: number | null;
  ownerOccupiedRate: number | null;
  povertyRate: number | null;
  totalPopulation: number | null;
  unemploymentRate: number | null;
  vacancyRate: number | null;
}

const SQFT_PER_ACRE = 43_560;

/** A lot's acres (`lot.lotsize2`) made from its square feet, to four places (a file's own acres are kept as written). */
export const acresOf = (sqft: number | null): number | null =>
  sqft === null ? null : +(sqft / SQFT_PER_ACRE).toFixed(4);

/** A lot's square feet (`lot.lotsize1`, whole) from its acres, for a roll that writes acres. */
export const sqftOf = (acres: number | null): number | null =>
  acres === null ? null : Math.round(acres * SQFT_PER_ACRE);
