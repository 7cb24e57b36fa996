// The deterministic synthetic generator: same seed, same records. Properties come in street blocks (ascending house
// numbers on one street of one ZIP) and multi-unit buildings (units sharing a street address), with values that
// hang together: size drives beds/baths and value, value drives assessment, tax, sale prices, mortgage and equity.
// Coverage follows SPEC 1: ownership 98%, assessed 99%, demographics 99%, beds/baths ~80%, last sale price ~66%.
import { numericOrdinals, STATE_FIPS } from '@pra/core/address';
import { VACANT_LAND } from '@pra/core/vocabulary';
import {
  acresOf,
  type OwnerInput,
  type PropertyInput,
  type SaleInput,
  type TractInput,
} from '../domain/property-input.js';
import { streetWithUnit } from '../domain/street-lines.js';
import { hash32, Random, Weighted } from './random.js';
import { loadFirstNames, loadStreetNames, loadSurnames, loadZipPlaces, type ZipPlace } from './reference-data.js';

const SUFFIXES = new Weighted(
  ['ST', 'AVE', 'DR', 'RD', 'LN', 'CT', 'WAY', 'PL', 'BLVD', 'CIR', 'TRL', 'PKWY', 'TER', 'LOOP'],
  [30, 18, 16, 12, 8, 6, 4, 3, 2, 2, 1, 1, 1, 1],
);
const DIRECTIONALS = new Weighted(
  ['', 'N', 'S', 'E', 'W', 'NE', 'NW', 'SE', 'SW'],
  [80, 5, 5, 4, 4, 0.5, 0.5, 0.5, 0.5],
);
const LENDERS = [
  'WELLS FARGO BANK NA',
  'ROCKET MORTGAGE LLC',
  'JPMORGAN CHASE BANK NA',
  'BANK OF AMERICA NA',
  'UNITED WHOLESALE MORTGAGE LLC',
  'US BANK NA',
  'PENNYMAC LOAN SERVICES LLC',
  'LOANDEPOT COM LLC',
  'GUILD MORTGAGE CO',
  'FAIRWAY INDEPENDENT MORTGAGE CORP',
  'NAVY FEDERAL CREDIT UNION',
  'CROSSCOUNTRY MORTGAGE LLC',
  'TRUIST BANK',
  'CITIZENS BANK NA',
  'FREEDOM MORTGAGE CORP',
];
const SUBDIVISION_WORDS = [
  'OAK',
  'RIDGE',
  'MEADOW',
  'CREEK',
  'HILLS',
  'PARK',
  'ESTATES',
  'GROVE',
  'VALLEY',
  'POINTE',
  'LAKE',
  'FARMS',
];
/** States whose deeds do not disclose sale prices. */
const NON_DISCLOSURE = new Set(['AK', 'ID', 'KS', 'LA', 'MS', 'MO', 'MT', 'NM', 'ND', 'TX', 'UT', 'WY']);
/** Rough price level by state (1 = national median). */
const STATE_PRICE: Record<string, number> = {
  CA: 2.3,
  HI: 2.6,
  MA: 1.9,
  WA: 1.8,
  NY: 1.6,
  NJ: 1.6,
  CO: 1.7,
  DC: 2.2,
  OR: 1.5,
  MD: 1.3,
  CT: 1.3,
  UT: 1.5,
  VA: 1.3,
  NH: 1.4,
  RI: 1.4,
  AZ: 1.3,
  NV: 1.3,
  FL: 1.2,
  ID: 1.4,
  MT: 1.4,
  MS: 0.6,
  WV: 0.55,
  AR: 0.65,
  OK: 0.65,
  KY: 0.7,
  AL: 0.7,
  LA: 0.7,
  OH: 0.75,
  IA: 0.75,
  KS: 0.75,
  MI: 0.8,
  IN: 0.8,
  MO: 0.8,
  NE: 0.85,
  ND: 0.85,
  SD: 0.9,
  PR: 0.45,
};
/** Effective property tax rate by state (share of assessed value). */
const TAX_RATE: Record<string, number> = {
  NJ: 0.022,
  IL: 0.021,
  TX: 0.018,
  NH: 0.018,
  CT: 0.017,
  CA: 0.0075,
  HI: 0.003,
  AL: 0.004,
  CO: 0.005,
};
/** Assessment ratio (assessed / market) by state. */
const ASSESS_RATIO: Record<string, number> = {
  CA: 0.62,
  AZ: 0.1,
  CO: 0.07,
  IL: 0.33,
  SC: 0.06,
  LA: 0.1,
  MS: 0.1,
  AL: 0.1,
  IN: 1,
  NY: 0.45,
};

export const CURRENT_TAX_YEAR = 2025;
export const DEMOGRAPHICS_SOURCE = 'ACS 2019-2023 5-year';

export interface GeneratorOptions {
  seed: number;
  /** Limit the geography to these states (e.g. ['CA']); all states when empty. */
  states?: readonly string[];
  /** Use only ZIP codes whose position modulo `count` is `index`: parallel generators never share an address. */
  shard?: { index: number; count: number };
}

interface Block {
  place: ZipPlace;
  street: string;
  nextNumber: number;
  step: number;
  left: number;
  building: { units: number; next: number; designator: string; number: number; condo: boolean } | null;
  tract: string | null;
  priceLevel: number;
  subdivision: string | null;
  yearBase: number;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const round = (n: number, to: number) => Math.round(n / to) * to;
const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));
const isoDate = (y: number, m: number, d: number) => `${y}-${pad(m, 2)}-${pad(d, 2)}`;

export class PropertyGenerator {
  private readonly r: Random;
  private readonly places: ZipPlace[];
  private readonly surnames = loadSurnames();
  private readonly firstNames = loadFirstNames();
  private readonly streetNames = loadStreetNames();
  private readonly seen = new Set<string>();
  private block: Block | null = null;
  /** Tracts used so far, with their generated demographics. */
  readonly tracts = new Map<string, TractInput>();
  private readonly written = new Set<string>();

  constructor(readonly options: GeneratorOptions) {
    const shard = options.shard ?? { index: 0, count: 1 };
    // Each shard has its own stream; shard 0 of 1 is the plain seed.
    this.r = new Random((options.seed ^ Math.imul(shard.index, 0x9e3779b9)) >>> 0);
    const wanted = new Set(options.states ?? []);
    this.places = loadZipPlaces().filter(
      (p, i) => (wanted.size === 0 || wanted.has(p.state)) && i % shard.count === shard.index,
    );
    if (this.places.length === 0) throw new Error(`No ZIP codes for states ${[...wanted].join(', ')}`);
  }

  next(): PropertyInput {
    for (;;) {
      if (!this.block || this.block.left === 0) this.block = this.newBlock();
      const p = this.fromBlock(this.block);
      const key = `${p.zip}|${p.line1}|${p.line2}`;
      if (this.seen.has(key)) {
        this.block.left = 0;
        continue;
      }
      this.seen.add(key);
      return p;
    }
  }

  /** Takes the tracts first used since the last call (the loader writes them with the batch). */
  drainNewTracts(): TractInput[] {
    const out = [...this.tracts.values()].filter((t) => !this.written.has(t.tract));
    for (const t of out) this.written.add(t.tract);
    return out;
  }

  private newBlock(): Block {
    const r = this.r;
    const place = r.pick(this.places);
    const dir = DIRECTIONALS.sample(r);
    const name = numericOrdinals([this.streetNames.sample(r)]).join(' ');
    const street = [dir, name, SUFFIXES.sample(r)].filter(Boolean).join(' ');
    const zipTraits = hash32(place.zip);
    const priceLevel = (STATE_PRICE[place.state] ?? 1) * Math.exp(((zipTraits % 1000) / 1000 - 0.5) * 0.9);
    const tract = r.chance(0.99) ? this.tractFor(place, priceLevel) : null;
    const multi = r.chance(0.1);
    const condo = r.chance(0.55);
    return {
      place,
      street,
      nextNumber: r.int(1, 60) * (r.chance(0.5) ? 10 : 100) + r.int(0, 9),
      step: r.pick([2, 2, 2, 4, 6, 10]),
      left: multi ? 1 : r.int(4, 30),
      building: multi
        ? { units: r.int(4, 48), next: 1, designator: condo ? r.pick(['UNIT', 'APT', '#']) : 'APT', number: 0, condo }
        : null,
      tract,
      priceLevel,
      subdivision: r.chance(0.6) ? `${r.pick(SUBDIVISION_WORDS)} ${r.pick(SUBDIVISION_WORDS)}` : null,
      yearBase: r.int(1905, 2022),
    };
  }

  private tractFor(place: ZipPlace, priceLevel: number): string {
    const h = hash32(place.zip);
    const tract = `${place.fips}${pad(((h % 900) + 100) * 100 + this.r.int(0, 3), 6)}`;
    if (!this.tracts.has(tract)) {
      const r = new Random(hash32(tract));
      const income = Math.round(clamp(r.logNormal(68_000 * Math.sqrt(priceLevel), 0.35), 18_000, 250_000));
      const homeValue = Math.round(clamp(r.logNormal(290_000 * priceLevel, 0.3), 40_000, 2_000_000));
      const owner = +clamp(r.logNormal(64, 0.2), 10, 97).toFixed(1);
      this.tracts.set(tract, {
        tract,
        vintageYear: 2023,
        source: DEMOGRAPHICS_SOURCE,
        medianAge: +clamp(r.logNormal(39, 0.15), 22, 70).toFixed(1),
        medianGrossRent: Math.round(clamp(homeValue * 0.0045 + r.normal() * 120, 450, 4_500)),
        medianHomeValue: homeValue,
        medianHouseholdIncome: income,
        ownerOccupiedRate: owner,
        povertyRate: +clamp(r.logNormal(11 * Math.sqrt(68_000 / income), 0.3), 1, 60).toFixed(1),
        totalPopulation: r.int(1_200, 8_000),
        unemploymentRate: +clamp(r.logNormal(5, 0.35), 0.8, 25).toFixed(1),
        vacancyRate: +clamp(r.logNormal(9, 0.45), 1, 45).toFixed(1),
      });
    }
    return tract;
  }

  private person(lastName?: string): OwnerInput {
    const first = (this.r.chance(0.5) ? this.firstNames.male : this.firstNames.female).sample(this.r);
    const last = lastName ?? this.surnames.sample(this.r);
    return { firstName: first, lastName: last, fullName: `${first} ${last}`, type: 'Individual' };
  }

  private owners(b: Block): [OwnerInput | null, OwnerInput | null] {
    const r = this.r;
    const x = r.next();
    if (x < 0.02) return [null, null];
    if (x < 0.1) {
      const base = r.chance(0.5)
        ? this.surnames.sample(r)
        : (b.street.split(' ').find((w) => w.length > 2) ?? 'PACIFIC');
      const kind = r.pick(['HOLDINGS LLC', 'PROPERTIES LLC', 'INVESTMENTS INC', 'REALTY LLC', 'CAPITAL LP']);
      return [{ firstName: null, lastName: null, fullName: `${base} ${kind}`, type: 'Corporation' }, null];
    }
    if (x < 0.16) {
      const last = this.surnames.sample(r);
      return [{ firstName: null, lastName: last, fullName: `${last} FAMILY TRUST`, type: 'Trust' }, null];
    }
    if (x < 0.17)
      return [{ firstName: null, lastName: null, fullName: `CITY OF ${b.place.city}`, type: 'Government' }, null];
    const o1 = this.person();
    const o2 = r.chance(0.36) ? this.person(r.chance(0.75) ? o1.lastName! : undefined) : null;
    return [o1, o2];
  }

  private fromBlock(b: Block): PropertyInput {
    const r = this.r;
    const { place } = b;
    let line1: string;
    let line2 = '';
    let proptype: string;
    if (b.building) {
      if (b.building.number === 0) b.building.number = b.nextNumber;
      line1 = `${b.building.number} ${b.street}`;
      const unit = b.building.next++;
      line2 = b.building.designator === '#' ? `# ${unit}` : `${b.building.designator} ${unit}`;
      proptype = b.building.condo ? 'CONDOMINIUM' : 'APARTMENT';
      if (b.building.next > b.building.units) b.left = 0;
    } else {
      line1 = `${b.nextNumber} ${b.street}`;
      b.nextNumber += b.step;
      b.left--;
      const t = r.next();
      proptype =
        t < 0.82
          ? 'SFR'
          : t < 0.9
            ? 'TOWNHOUSE/ROWHOUSE'
            : t < 0.95
              ? 'DUPLEX'
              : t < 0.98
                ? 'MOBILE HOME'
                : 'VACANT LAND';
    }
    const land = proptype === VACANT_LAND;
    const unitLike = proptype === 'CONDOMINIUM' || proptype === 'APARTMENT';
    const yearBuilt = land ? null : clamp(b.yearBase + r.int(-3, 3), 1850, 2025);
    const sqft = land
      ? null
      : Math.round(clamp(r.logNormal(unitLike ? 950 : proptype === 'SFR' ? 1_850 : 1_300, 0.32), 350, 9_000));
    const beds = sqft === null ? null : clamp(Math.round(sqft / 620 + r.normal() * 0.6), 0, 8);
    const bathsTotal = beds === null ? null : clamp(Math.round((1 + beds * 0.55 + r.normal() * 0.4) * 2) / 2, 1, 7);
    const bathsPartial = bathsTotal === null ? null : bathsTotal % 1 === 0.5 ? 1 : 0;
    const hasRooms = r.chance(0.81);
    const lotSqft = unitLike ? null : Math.round(clamp(r.logNormal(land ? 12_000 : 7_200, 0.55), 1_000, 400_000));
    const ageFactor = yearBuilt === null ? 1 : 0.75 + 0.35 * ((yearBuilt - 1900) / 125);
    const market = round(
      land
        ? (lotSqft ?? 8_000) * 6 * b.priceLevel * r.logNormal(1, 0.3)
        : sqft! * 165 * b.priceLevel * ageFactor * r.logNormal(1, 0.18),
      100,
    );
    const ratio = ASSESS_RATIO[place.state] ?? 0.9;
    const taxRate = TAX_RATE[place.state] ?? 0.011;
    const landShare = land ? 1 : clamp(0.25 + r.normal() * 0.08, 0.1, 0.6);
    const assessYear = (year: number) => {
      const f = 1.045 ** (year - CURRENT_TAX_YEAR);
      const mt = round(market * f, 100);
      const total = round(mt * ratio, 10);
      const l = round(total * landShare, 10);
      return {
        taxYear: year,
        land: l,
        improvements: total - l,
        total,
        marketTotal: mt,
        taxAmount: Math.round(mt * taxRate * 100) / 100,
      };
    };
    const [owner1, owner2] = this.owners(b);
    const sales = this.sales(b, market, yearBuilt, owner1, owner2);
    const lastSale = sales[0];
    const mortgageCoverage = 0.35 + (hash32(place.state) % 45) / 100;
    const mortgages =
      lastSale && owner1?.type === 'Individual' && r.chance(mortgageCoverage)
        ? [
            {
              amount: round((lastSale.price ?? market * 0.8) * clamp(0.8 + r.normal() * 0.08, 0.5, 0.97), 1_000),
              date: lastSale.recordingDate,
              lender: r.pick(LENDERS),
            },
          ]
        : [];
    const assessed = r.chance(0.99);
    const current = assessed ? assessYear(CURRENT_TAX_YEAR) : null;
    const avm = !land && r.chance(0.72) ? round(market * r.logNormal(1.04, 0.06), 1_000) : null;
    const tractProfile = b.tract ? this.tracts.get(b.tract) : undefined;
    const propertyRent = !land && r.chance(0.55) ? round((avm ?? market) * 0.0052 * r.logNormal(1, 0.1), 25) : null;
    const rent = propertyRent ?? (!land && tractProfile && r.chance(0.85) ? tractProfile.medianGrossRent : null);
    const absentee = owner1 !== null && (owner1.type !== 'Individual' || r.chance(0.2));
    const mailPlace = absentee ? r.pick(this.places) : null;
    const apnDigits = `${pad(r.int(1, 999), 3)}${pad(r.int(0, 9999), 4)}${pad(r.int(0, 999), 3)}`;
    const apn = `${apnDigits.slice(0, 3)}-${apnDigits.slice(3, 7)}-${apnDigits.slice(7)}-${line2 ? pad(b.building!.next - 1, 4) : '0000'}`;
    const latJitter = () => r.normal() * 0.01;
    return {
      apn,
      apnOrig: apn.replace(/-/g, ''),
      taxParcelId: r.chance(0.4) ? `${STATE_FIPS[place.state]}${apnDigits}${pad(r.int(0, 99), 2)}` : null,
      fips: place.fips,
      state: place.state,
      county: place.county,
      line1,
      line2,
      city: place.city,
      zip: place.zip,
      zip4: r.chance(0.8) ? pad(r.int(1, 9999), 4) : '',
      latitude: +(place.latitude + latJitter()).toFixed(6),
      longitude: +(place.longitude + latJitter()).toFixed(6),
      censusTract: b.tract,
      proptype,
      yearBuilt,
      lotSqft,
      lotAcres: acresOf(lotSqft),
      subdivision: b.subdivision,
      pool: land ? null : r.chance(place.state === 'FL' || place.state === 'AZ' || place.state === 'CA' ? 0.2 : 0.06),
      vacant: land || r.chance(0.03),
      buildingSqft: sqft,
      beds: hasRooms ? beds : null,
      bathsTotal: hasRooms ? bathsTotal : null,
      bathsPartial: hasRooms ? bathsPartial : null,
      owner1,
      owner2,
      owner3: null,
      owner4: null,
      mailing:
        owner1 === null
          ? null
          : mailPlace
            ? {
                line1: `${r.int(10, 9_999)} ${numericOrdinals([this.streetNames.sample(r)]).join(' ')} ${SUFFIXES.sample(r)}`,
                city: mailPlace.city,
                state: mailPlace.state,
                zip: mailPlace.zip,
              }
            : { line1: streetWithUnit({ line1, line2 }), city: place.city, state: place.state, zip: place.zip },
      assessment: current && {
        ...current,
        avmValue: avm,
        avmDate: avm === null ? null : isoDate(2025, r.int(1, 10), r.int(1, 28)),
        rentalEstimate: rent,
        rentalSource: rent === null ? null : propertyRent !== null ? 'property' : 'area_median_acs_2024',
      },
      assessmentHistory: assessed ? [1, 2, 3, 4, 5].map((k) => assessYear(CURRENT_TAX_YEAR - k)) : [],
      sales,
      mortgages,
      lastModified: new Date(Date.UTC(2025, r.int(0, 9), r.int(1, 28), r.int(0, 23), r.int(0, 59))).toISOString(),
    };
  }

  /** 0-4 sales from construction to 2025, newest first; prices follow a 4.5%/year index back from today's value. */
  private sales(
    b: Block,
    market: number,
    yearBuilt: number | null,
    owner1: OwnerInput | null,
    owner2: OwnerInput | null,
  ): SaleInput[] {
    const r = this.r;
    const count = r.chance(0.12) ? 0 : r.int(1, 4);
    const first = Math.max(yearBuilt ?? 1985, 1985);
    const years = Array.from({ length: count }, () => r.int(first, 2025)).sort((x, y) => y - x);
    const nonDisclosure = NON_DISCLOSURE.has(b.place.state);
    let buyer = owner1 ? (owner2 ? `${owner1.fullName}; ${owner2.fullName}` : owner1.fullName) : null;
    // Dates drawn first and sorted newest first, so same-year sales are in order too.
    const dates = years.map((year) => ({ year, month: r.int(1, 12), day: r.int(1, 28) }));
    dates.sort((x, y) => y.year - x.year || y.month - x.month || y.day - x.day);
    return dates.map(({ year, month, day }) => {
      const quitclaim = r.chance(0.08);
      const price =
        nonDisclosure || quitclaim || r.chance(0.03)
          ? null
          : round(market * 1.045 ** (year - 2025) * r.logNormal(1, 0.08), 500);
      const seller = this.person().fullName;
      const recDay = clamp(day + r.int(1, 20), 1, 28);
      const sale: SaleInput = {
        date: isoDate(year, month, day),
        price,
        documentType: quitclaim
          ? 'QUITCLAIM DEED'
          : r.chance(0.04)
            ? "TRUSTEE'S DEED"
            : b.place.state === 'CA'
              ? 'GRANT DEED'
              : 'WARRANTY DEED',
        recordingDate: isoDate(year, month, recDay),
        buyerName: buyer,
        sellerName: seller,
        // The generator writes no deed reference (drawing one would move every later draw of its seeded sequence).
        documentNumber: null,
      };
      buyer = seller;
      return sale;
    });
  }
}
