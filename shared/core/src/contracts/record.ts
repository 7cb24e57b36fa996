// The property record (SPEC 2.1) with the group names and type decisions of ARCHITECTURE.md:
// the formal schema wins over samples (Id and parcelId integers, mortgage.amount a string).
import { OWNER_TYPES, PROPERTY_TYPES } from '../vocabulary.js';
import { z } from './zod.js';

const nstr = z.string().nullable();
const nint = z.number().int().nullable();
const nnum = z.number().nullable();
const yesNo = z.enum(['Y', 'N']);

export const Identifier = z.object({
  Id: z.number().int().openapi({
    description: "The service's property ID; the `id` of /sale/history and /assessment/detail",
    example: 6000000123,
    // Past 2^31 at national volume: a client generator must not map it to 32 bits.
    format: 'int64',
  }),
  apn: z.string().openapi({ description: 'Assessor Parcel Number', example: '015-0123-004-0000' }),
  apnOrig: z.string().openapi({ description: 'APN as the county writes it' }),
  fips: z
    .string()
    .regex(/^\d{5}$/)
    .openapi({ description: 'State + county FIPS code', example: '06067' }),
  parcelId: z.number().int().openapi({ description: "The service's parcel ID", format: 'int64' }),
});

export const Address = z.object({
  country: z.string().openapi({ example: 'US' }),
  countrySubd: z.string().length(2).openapi({ description: 'State, 2 letters', example: 'CA' }),
  line1: z.string().openapi({ example: '3526 HIGH ST' }),
  line2: z.string().openapi({ description: 'Unit (e.g. `APT 4`); empty when the address has none', example: '' }),
  locality: z.string().openapi({ description: 'City', example: 'SACRAMENTO' }),
  oneLine: z.string().openapi({ example: '3526 HIGH ST, SACRAMENTO, CA 95838' }),
  postal1: z.string().openapi({ description: 'ZIP code', example: '95838' }),
  postal2: z.string().openapi({ description: 'ZIP+4 add-on; empty when unknown', example: '1234' }),
});

export const Location = z.object({
  censustract: z.string().nullable().openapi({ description: '11-digit census tract GEOID (state+county+tract)' }),
  county: z.string(),
  latitude: nnum,
  longitude: nnum,
  distance: z.number().optional().openapi({
    description:
      'Area search only (/property/radius, /property/area): miles from the centre searched, great-circle, rounded to 3 decimals',
    example: 1.234,
  }),
});

export const Summary = z.object({
  absenteeInd: yesNo.nullable().openapi({
    description:
      '`Y` when the owner mailing address differs from the property address (street with its unit, both normalised, and ZIP5), `N` when it is the property address; null when no mailing address with a ZIP is on record (unknown is not owner-occupied)',
  }),
  proptype: z.string().openapi({ description: `Property type: ${PROPERTY_TYPES.join(', ')}`, example: 'SFR' }),
  vacantInd: yesNo.openapi({
    description:
      "`Y` for land without a building (`proptype` VACANT LAND), and for a generated record's unoccupied building; an imported record is `Y` only as vacant land (a county roll says nothing else of occupancy)",
  }),
  yearbuilt: nint,
});

export const Lot = z.object({
  lotsize1: nint.openapi({ description: 'Square feet' }),
  lotsize2: nnum.openapi({ description: 'Acres' }),
  subdivision: nstr,
  pooltype: nstr.openapi({ description: '`Y` when the lot has a pool (sample-payload field, kept for compatibility)' }),
});

export const Building = z.object({
  size: z.object({ universalsize: nint.openapi({ description: 'Building area, square feet' }) }),
  rooms: z.object({
    beds: nint,
    bathstotal: nnum.openapi({
      description: 'Bathrooms in all, a half bathroom counting 0.5 (2.5: two full, one half)',
    }),
    bathspartial: nint.openapi({ description: 'Half (partial) bathrooms, a count' }),
  }),
});

export { OWNER_TYPES, PROPERTY_TYPES };

export const OwnerName = z.object({
  id: nint.openapi({
    description:
      'The owner entity (GET /owner/detail?id=...): every mention of one owner carries its id, kept across re-imports; an owner merged into another later answers as that one. Null when the record names no owner here.',
    example: 48213,
    format: 'int64',
  }),
  firstName: nstr.openapi({ description: "A person's first name; null for an entity" }),
  lastName: nstr.openapi({ description: "A person's last name; null for an entity (found by the words of fullName)" }),
  fullName: nstr.openapi({ description: 'A person in reading order (FIRST MIDDLE LAST SUFFIX); an entity as written' }),
  type: nstr.openapi({
    description: `${OWNER_TYPES.join(', ')}; a mapping's own \`ownerType\` column is stored as the file writes it`,
  }),
});

export const Owner = z.object({
  owner1: OwnerName,
  owner2: OwnerName.nullable(),
  owner3: OwnerName.optional().openapi({
    description:
      "A third owner, present only when the county's roll names one (as the incumbent's owner3); found by owner search as owner1 and owner2 are (its `id` an owner entity)",
  }),
  owner4: OwnerName.optional().openapi({
    description:
      "A fourth owner, present only when the roll names one (as the incumbent's owner4); a fifth is not kept",
  }),
  mailingAddress: z.object({
    line1: nstr,
    locality: nstr,
    countrySubd: nstr,
    postal1: nstr,
    postal2: z.string().optional().openapi({ description: 'The ZIP+4 add-on, when the county file gives it' }),
  }),
});

export const Assessment = z.object({
  assessed: z.object({ land: nint, improvements: nint, total: nint }),
  market: z.object({ total: nint }),
  avm: z.object({ value: nint, date: nstr }),
  equity: nint.openapi({
    description:
      'Value (AVM, else market) minus the current mortgage amount; null when either is unknown (no mortgage on record is unknown, not 0)',
  }),
  rental: z.object({
    estimate: nint,
    estimateSource: z.enum(['property', 'area_median_acs_2024']).nullable(),
  }),
});

export const Sale = z.object({
  lastSale: z.object({ date: nstr.openapi({ format: 'date' }), price: nint }),
});

export const Mortgage = z.object({
  amount: nstr.openapi({ description: 'Loan amount as a decimal string (formal schema: string)', example: '320000' }),
  date: nstr.openapi({ format: 'date' }),
  lender: z.object({ companyname: nstr }),
});

export const Demographics = z
  .object({
    medianAge: nnum,
    medianGrossRent: nint,
    medianHomeValue: nint,
    medianHouseholdIncome: nint,
    ownerOccupiedRate: nnum.openapi({ description: 'Percentage 0-100' }),
    povertyRate: nnum.openapi({ description: 'Percentage 0-100' }),
    source: z.string().openapi({ description: 'Census data vintage', example: 'ACS 2019-2023 5-year' }),
    totalPopulation: nint,
    unemploymentRate: nnum.openapi({ description: 'Percentage 0-100' }),
    vacancyRate: nnum.openapi({ description: 'Percentage 0-100' }),
  })
  .openapi({ description: "Area-level census data for the property's tract" });

export const PropertyRecord = z
  .object({
    identifier: Identifier,
    address: Address,
    location: Location,
    summary: Summary,
    lot: Lot,
    building: Building,
    owner: Owner,
    assessment: Assessment,
    sale: Sale,
    mortgage: Mortgage,
    demographics: Demographics.nullable(),
    vintage: z.object({
      lastModified: nstr.openapi({ format: 'date-time' }),
      postal1Source: z.enum(['owner-mailing', 'street-segment']).nullable().optional().openapi({
        description:
          "Present when the county file gave the parcel no ZIP: where `address.postal1` comes from. `owner-mailing`: the owner is mailed at the parcel's own line, in a ZIP of the county; `street-segment`: the ZIP the county's other parcels on the same street segment (same side, nearest numbers below and above) share; null: no evidence, `postal1` is empty. Absent: the ZIP is the county file's (or the record's source's).",
      }),
    }),
  })
  .openapi('PropertyRecord');
export type PropertyRecord = z.infer<typeof PropertyRecord>;
export type DemographicsRecord = z.infer<typeof Demographics>;

export const SaleHistoryEntry = z
  .object({
    date: z.string().openapi({ format: 'date' }),
    price: nint,
    documentType: nstr.openapi({
      example: 'GRANT DEED',
      description: "The deed's type; null when the source names none (the county rolls imported here name none).",
    }),
    recordingDate: nstr.openapi({
      format: 'date',
      description: 'When the deed was recorded; null when the source gives no recording date.',
    }),
    buyerName: nstr,
    sellerName: nstr,
    documentNumber: nstr.optional().openapi({
      example: '793:231',
      description:
        "The deed's reference in the county's land records, as the source writes it: a book and page or an instrument number; null when the source gives none. Two deeds of one day at one price are two entries when their references differ. Absent only from a history stored before this field existed, until its county file is imported again.",
    }),
  })
  .openapi('SaleHistoryEntry');
export type SaleHistoryEntry = z.infer<typeof SaleHistoryEntry>;

export const AssessmentHistoryEntry = z
  .object({
    taxYear: z.number().int().nullable().openapi({
      description:
        'The tax year the values are for; null when the source names none (a county roll without a tax year column or constant in its mapping).',
    }),
    assessed: z.object({ land: nint, improvements: nint, total: nint }),
    market: z.object({ total: nint }),
    tax: z.object({ amount: nnum }),
  })
  .openapi('AssessmentHistoryEntry');
export type AssessmentHistoryEntry = z.infer<typeof AssessmentHistoryEntry>;

export const SaleHistoryRecord = PropertyRecord.extend({
  saleHistory: z.array(SaleHistoryEntry).openapi({ description: 'Newest first' }),
}).openapi('SaleHistoryRecord');

export const AssessmentHistoryRecord = PropertyRecord.extend({
  assessmentHistory: z.array(AssessmentHistoryEntry).openapi({ description: 'Newest tax year first' }),
}).openapi('AssessmentHistoryRecord');

export const Suggestion = z
  .object({
    identifier: z.object({ Id: z.number().int().openapi({ format: 'int64' }) }),
    address: Address.pick({
      line1: true,
      line2: true,
      locality: true,
      countrySubd: true,
      postal1: true,
      oneLine: true,
    }),
  })
  .openapi('Suggestion');
