// The word lists the owner-name parser (owner-names.ts) decides by: what marks an entity and of which type, what a
// roll writes beside a name that is no name (tenancy, "and wife"), suffixes, trustee words and surname particles.
// Upper case, dots and apostrophes already removed (L.L.C. -> LLC, O'BRIEN -> OBRIEN).

/**
 * Words that say how the owners hold the parcel, not who they are: dropped (owner-tokens.ts dropMarkers), those that
 * are words of names too (NAME_WORD_MARKERS) only where an owner ends.
 */
export const TENANCY_MARKERS = new Set([
  'H/W',
  'W/H',
  'HW',
  'H&W',
  'HUSB',
  'ETAL',
  'ETALS',
  'ETUX',
  'ETVIR',
  'ETCON',
  'JTRS',
  'JTWROS',
  'JTWRS',
  'JT',
  'JTS',
  'TIC',
  'TEN',
  'TE/S',
  'T/E',
  'TBE',
  'TENS',
  'C/P',
  'T/A',
  'T/F',
  'L/E',
  'S/M',
  'S/W',
  'M/W',
  'M/M',
  'W/O',
  'ETC',
  '+',
]);

/**
 * A person named as executor (`LUCK, JAMES M, III, EX`): the person owns for the estate, as a trustee for a trust; the
 * word is dropped as a tenancy marker is.
 */
export const EXECUTOR_MARKERS = new Set([
  'EX',
  'EXS',
  'EXR',
  'EXRS',
  'EXECUTOR',
  'EXECUTORS',
  'EXECUTRIX',
  'CO-EX',
  'CO-EXS',
  'CO-EXECUTOR',
  'CO-EXECUTORS',
]);

/**
 * What befell the parcel, noted after its owner (`VAUGHAN, WARREN & HELEN (ESCHEATED)`: taken by the state for want
 * of heirs, the owner still as named): no one's name.
 */
export const NOTE_MARKERS = new Set(['ESCHEATED']);

/** Every word dropped from a name as no one's (tenancy, executor and note markers). */
export const DROPPED_MARKERS = new Set([...TENANCY_MARKERS, ...EXECUTOR_MARKERS, ...NOTE_MARKERS]);

/** Two-word tenancy markers: both words go (`SMITH JOHN & MARY B JT TEN`: JT alone would be a name's word). */
export const TENANCY_PAIRS = new Set(['JT TEN', 'TEN ENT', 'TEN COM', 'JT WROS']);
/** The first words of TENANCY_PAIRS: only after one of them is a pair looked up (a word of every cell is read). */
export const TENANCY_PAIR_FIRST = new Set([...TENANCY_PAIRS].map((p) => p.slice(0, p.indexOf(' '))));

/**
 * Tenancy markers that are words of names too (`REGION TEN COMMUNITY SERVICES`, `EIGHT TEN, LLC`, `JT INVESTMENTS
 * LLC`): dropped only where an owner ends (the cell's last word, or before `&` or another marker), never inside a name.
 */
export const NAME_WORD_MARKERS = new Set(['TEN', 'TENS', 'JT', 'JTS', 'TIC', 'ETC', 'EX', 'EXS']);

/** Two-word markers: ET AL, ET UX, ET VIR, ET ALS, ET CON (the first word alone is left to TENANCY_MARKERS' ETAL). */
export const ET_SECOND = new Set(['AL', 'ALS', 'UX', 'VIR', 'CON']);
/** LIFE ESTATE, LF EST, LIFE EST: a life estate (owner-names.ts dropMarkers), as L/E. */
export const LIFE_ESTATE_SECOND = new Set(['EST', 'ESTATE']);
/** A care-of: the name that follows is whom to write to, not an owner. */
export const CARE_OF = new Set(['C/O', '%', 'ATTN']);
/** A contact's title, as a co-owner column names one after a company's or a church's name (`..., RE DIRECTOR`). */
export const CONTACT_TITLES = new Set([
  'DIRECTOR',
  'DIR',
  'PASTOR',
  'MANAGER',
  'MGR',
  'TREASURER',
  'PRESIDENT',
  'SECRETARY',
  'ADMINISTRATOR',
  'CONTROLLER',
  'OFFICER',
  'CHAIRMAN',
  'CEO',
  'CFO',
]);
/** Words that qualify a contact's title (`RE DIRECTOR`, `EXEC DIR`). */
export const CONTACT_QUALIFIERS = new Set([
  'RE',
  'EXEC',
  'EXECUTIVE',
  'VICE',
  'ASST',
  'ASSISTANT',
  'GENERAL',
  'PROPERTY',
]);

/** A person holding as trustee: the marker is dropped and the person typed Trustee. */
export const TRUSTEE_MARKERS = new Set([
  'TR',
  'TRS',
  'TTE',
  'TTEE',
  'TTEES',
  'TSTE',
  'TRSTE',
  'TRSTEE',
  'TRUSTEE',
  'TRUSTEES',
  'TRUSTE',
  'TRUSTES',
  'CO-TTEES',
  'CO-TTEE',
  'CO-TTE',
  'CO-TRUSTEES',
  'CO-TRUSTEE',
  'CO-TR',
  'SUC-TR',
  'SUCC-TR',
  'SUC-TRS',
  'CO-TRS',
]);

/** Name suffixes kept in `suffix`. V is not one: LAST FIRST V is a middle initial far more often. */
export const SUFFIXES = new Set(['JR', 'SR', 'II', 'III', 'IV', '2ND', '3RD', '4TH', 'ESQ', 'MD', 'DDS', 'PHD']);

/** Words a surname can start with: `MC LEAN ROBERT` is ROBERT MC LEAN, `DE LA CRUZ` one surname. */
export const SURNAME_PARTICLES = new Set([
  'MC',
  'MAC',
  'DE',
  'DEL',
  'DELA',
  'DELLA',
  'DI',
  'DA',
  'DU',
  'DOS',
  'DAS',
  'VAN',
  'VON',
  'VANDER',
  'VANDEN',
  'DER',
  'DEN',
  'LOS',
  'LAS',
  'LA',
  'ST',
  'O',
  'TEN',
  'TER',
  'BEN',
  'EL',
  'AL',
  'ABU',
]);

/** Words a cell may continue with on the next cell (`REDEVELOPMENT AUTHORITY` / `OF PHILADELPHIA`). */
export const CONNECTORS = new Set(['OF', 'FOR', 'AND', '&', 'IN', 'AT', 'ON', 'THE', 'TO', 'BY']);

export type EntityType = 'Corporation' | 'Trust' | 'Government' | 'Estate' | 'Religious' | 'Association' | 'Financial';

/** The legal forms of a company, as its name ends (the Corporation words start with them). */
const COMPANY_SUFFIX_WORDS = [
  'LLC',
  'INC',
  'INCORPORATED',
  'CORP',
  'CORPORATION',
  'CO',
  'COMPANY',
  'LP',
  'LLP',
  'LTD',
  'LC',
  'PLLC',
  'PC',
  'LLLP',
] as const;

/**
 * Entity words by type. A word counts wherever it stands, except the WEAK ones, which are also surnames
 * (CHURCH, TEMPLE, PARISH, LAND...): those count only where a surname cannot stand (not the surname's position).
 */
export const ENTITY_WORDS: Record<EntityType, readonly string[]> = {
  Estate: ['HEIRS', 'HEIR', 'DECD', 'DECEASED', 'DEC', 'ESTATES-OF'],
  Government: [
    'COMMONWEALTH',
    'AUTHORITY',
    'AUTH',
    'REDEVELOPMENT',
    'DEPT',
    'DEPARTMENT',
    'GOVERNMENT',
    'GOVT',
    'MUNICIPAL',
    'MUNICIPALITY',
    'TOWNSHIP',
    'TWP',
    'BOROUGH',
    'COMMISSIONERS',
    'COMMISSION',
    'HUD',
    'FEDERAL-GOVERNMENT',
    'SCHOOL-DISTRICT',
    'BOARD-OF',
    'ADMINISTRATION',
    'ADMINISTRATIO',
    // `RECTOR & VISITORS OF THE UNIVERSITY OF VIRGINIA` (RECTOR alone is a surname).
    'VISITORS',
  ],
  Religious: [
    'CHURCH',
    'CHURCHES',
    'PARISH',
    'MINISTRIES',
    'MINISTRY',
    'TEMPLE',
    'CHAPEL',
    'SYNAGOGUE',
    'MOSQUE',
    'MASJID',
    'CONGREGATION',
    'CONGREGATIONAL',
    'DIOCESE',
    'ARCHDIOCESE',
    'BAPTIST',
    'BAPT',
    'METHODIST',
    'EPISCOPAL',
    'LUTHERAN',
    'PRESBYTERIAN',
    'CATHOLIC',
    'TABERNACLE',
    'WORSHIP',
    'EVANGELICAL',
    'PENTECOSTAL',
    'APOSTOLIC',
    'GOSPEL',
    'ARCHBISHOP',
    'JEHOVAHS',
    'AME',
  ],
  Financial: [
    'BANK',
    'BANCORP',
    'FSB',
    'SAVINGS',
    'SAVING',
    'MORTGAGE',
    'MTG',
    'LENDING',
    'FINANCIAL',
    'FINANCE',
    'FIN',
    'FED',
    'CREDIT-UNION',
    'FEDERAL-NATIONAL',
    'FEDERAL-HOME',
    'NATIONAL-ASSOCIATION',
    'NA',
  ],
  Trust: [
    'TRUST',
    'TRUSTS',
    'TRUS',
    'TRST',
    'REVOCABLE',
    'IRREVOCABLE',
    'IRRV',
    'REV-TRUST',
    'NOMINEE',
    'INTERVIVOS',
    'FBO',
  ],
  Association: [
    'ASSOCIATION',
    'ASSN',
    'ASSOC',
    'CONDOMINIUM',
    'CONDOMINIUMS',
    'CONDO',
    'HOMEOWNERS',
    'HOA',
    'COMMUNITY',
    'MEDICAL',
    'BOARD',
    'CLUB',
    'SOCIETY',
    'FOUNDATION',
    'COUNCIL',
    'LEAGUE',
    'INSTITUTE',
    'UNIVERSITY',
    'COLLEGE',
    'ACADEMY',
    'SCHOOL',
    'HOSPITAL',
    'CTR',
    'CENTER',
    'COOPERATIVE',
    'COOP',
    'FELLOWSHIP',
    'LODGE',
    'POST',
    'CEMETERY',
    'NONPROFIT',
    'MUSEUM',
    'YMCA',
  ],
  Corporation: [
    ...COMPANY_SUFFIX_WORDS,
    'PARTNERSHIP',
    'PARTNERS',
    'HOLDINGS',
    'HOLDING',
    'PROPERTIES',
    'PROPERTY',
    'INVESTMENTS',
    'INVESTMENT',
    'INVEST',
    'INVESTORS',
    'REALTY',
    'ENTERPRISES',
    'ENTERPRISE',
    'GROUP',
    'DEVELOPMENT',
    'DEVELOPERS',
    'MANAGEMENT',
    'MGMT',
    'ASSOCIATES',
    'VENTURES',
    'VENTURE',
    'CAPITAL',
    'APARTMENTS',
    'HOMES',
    'HOUSING',
    'CONSTRUCTION',
    'BUILDERS',
    'SERVICES',
    'INDUSTRIES',
    'ACQUISITION',
    'ACQUISITIONS',
    'RENTALS',
    'ESTATES',
    'REAL-ESTATE',
    'SERIES',
    'FUND',
    'OWNER',
    'LAND',
    'TRADING',
    'SOLUTIONS',
    'SYSTEMS',
    'COMMUNITIES',
    'LIMITED',
    'INTERNATIONAL',
    'RAILWAY',
    'RAILROAD',
    'SONS',
    'BROS',
    'ELECTRIC',
    'TELEPHONE',
    'UTILITIES',
    'ENGINEERS',
    'SURVEYORS',
    'STORAGE',
    'MOTORS',
    'CONSULTING',
    'HOTEL',
    'MOTEL',
    'RESTAURANT',
    'AGENCY',
    'PROJECT',
    'SYSTEM',
    // Communications, community, commission: a firm's or a body's name, whichever (`FAIRPOINT COMM`).
    'COMM',
  ],
};

/**
 * Entity words that are also names (CHURCH, BOARD and CHRISTIAN are surnames, BAPTIST a given name): they count only
 * in a name away from the surname's place and not as FIRST M LAST's surname; those that are also given names
 * (WEAK_WORDS_ALSO_GIVEN) only in a name of three words or more.
 */
export const WEAK_WORDS = new Set([
  'CHURCH',
  // Not a surname, but weaker than the words beside it (`MONTICELLO AREA COMMUNITY ACTION AGENCY` is an agency,
  // `CHRIST COMMUNITY CHURCH` a church).
  'COMMUNITY',
  'BOARD',
  'TEMPLE',
  'PARISH',
  'CHAPEL',
  'LAND',
  'CENTER',
  'POST',
  'LODGE',
  'HOMES',
  'GROUP',
  'FIN',
  'FED',
  'DEC',
  'CO',
  'AME',
  'BAPTIST',
  'HEIR',
  'OWNER',
  'SCHOOL',
  'COLLEGE',
  'NOMINEE',
  'FUND',
  'SERIES',
  'NA',
]);

/**
 * Entity words that are given names too (`NGUYEN, HOA T`, `NGO HOA TU`, `HOA T NGUYEN`; `MADISON PLACE HOA`): not
 * counted in a given name's place: just after a comma, second in a LAST FIRST name of three words or more, first in a
 * FIRST LAST name.
 */
export const ENTITY_WORDS_ALSO_GIVEN = new Set(['HOA']);
/**
 * Entity phrases (ENTITY_PHRASES' keys) that are a woman's given names too: not counted as the last words of a
 * person's `LAST, FIRST` cell (`VINCI, UMBERTO V & FANNIE MAE`, `JONES, FANNIE MAE`; owner-entity-type.ts
 * givenPhrasePlace).
 */
export const ENTITY_PHRASES_ALSO_GIVEN = new Set(['FANNIE-MAE']);

/**
 * Second given names of American compound first names, women's (`MARY JO`, `BETTY ANN`, `DAISY MAE`, `MARY LOU`,
 * `ANN MARIE`): after a first name, a given name, not the family's (owner-persons.ts compoundGivenName).
 */
export const SECOND_GIVEN_NAMES = new Set(['ANN', 'ANNE', 'JO', 'LOU', 'SUE', 'BETH', 'MAE', 'MARIE', 'LOUISE']);

/**
 * Those of SECOND_GIVEN_NAMES that are East Asian surnames too (JO and LOU, Korean and Chinese; a wife keeps hers):
 * a compound first name only after a woman's name on the SSA's lists (`BETTY JO`, `MARY LOU`; `MINJI JO`, `MEI LOU`
 * keep their surnames).
 */
export const SECOND_GIVEN_ALSO_SURNAMES = new Set(['JO', 'LOU']);

/** The middle names of Vietnamese names, `THI` (women's) and `VAN` (men's): given names follow them. */
export const VIETNAMESE_MIDDLE_NAMES = new Set(['THI', 'VAN']);
/** The commonest Vietnamese surnames, which a Vietnamese name written LAST FIRST begins with (owner-entity-type.ts). */
export const VIETNAMESE_SURNAMES = new Set([
  ...['NGUYEN', 'TRAN', 'LE', 'PHAM', 'HOANG', 'HUYNH', 'PHAN', 'VU', 'VO', 'DANG', 'BUI', 'DO', 'HO', 'NGO'],
  ...['DUONG', 'LY', 'TRUONG', 'DINH', 'LAM', 'LUONG', 'MAI', 'TO', 'TA', 'LUU', 'CAO', 'QUACH', 'TRINH', 'HA'],
  ...['VUONG', 'THAI', 'DOAN', 'TANG', 'KIM', 'LA', 'CHAU', 'DAO', 'HUA', 'TONG', 'LUC', 'VI', 'TIEU', 'PHUNG'],
]);

/** Weak words that are given names too (`NUPIERI BAPTIST`): in a two-word name they are the given name. */
export const WEAK_WORDS_ALSO_GIVEN = new Set(['BAPTIST', 'AME', 'FIN']);

/**
 * The words a company's name ends with (`26 UNIVERSITY CIRCLE, LLC`, `TRUST OF THREE, LLC`): a name ending in one is
 * typed by its Government, Religious or Financial words, else it is a Corporation.
 */
export const COMPANY_SUFFIXES = new Set([...COMPANY_SUFFIX_WORDS, 'LIMITED']);

/** Two-word phrases, looked up joined by `-`, checked before single words. */
export const ENTITY_PHRASES: Record<string, EntityType> = {
  'ESTATE-OF': 'Estate',
  'EST-OF': 'Estate',
  'ESTATES-OF': 'Estate',
  'CITY-OF': 'Government',
  'COUNTY-OF': 'Government',
  'STATE-OF': 'Government',
  'TOWN-OF': 'Government',
  'VILLAGE-OF': 'Government',
  'UNITED-STATES': 'Government',
  'SCHOOL-DISTRICT': 'Government',
  'BOARD-OF': 'Government',
  'HOUSING-AUTHORITY': 'Government',
  'FEDERAL-GOVERNMENT': 'Government',
  'CREDIT-UNION': 'Financial',
  'FEDERAL-NATIONAL': 'Financial',
  'FEDERAL-HOME': 'Financial',
  'NATIONAL-ASSOCIATION': 'Financial',
  'REAL-ESTATE': 'Corporation',
  'REAL-EST': 'Corporation',
  'IN-TRUST': 'Trust',
  'REV-TRUST': 'Trust',
  'LIVING-TRUST': 'Trust',
  'FAMILY-TRUST': 'Trust',
  'LD-TR': 'Trust',
  'LAND-TRUST': 'Trust',
  'REV-TR': 'Trust',
  'REV-TRS': 'Trust',
  'REV-TRST': 'Trust',
  'INTER-VIVOS': 'Trust',
  // Given names elsewhere (`BOWSER FANNIE A`, `VUONG, LOAN MY`): entity words only so.
  'FANNIE-MAE': 'Financial',
  'FREDDIE-MAC': 'Financial',
  'LOAN-ASSOC': 'Financial',
  'LOAN-ASSN': 'Financial',
  'LOAN-ASSOCIATION': 'Financial',
  'LOAN-SERVICING': 'Financial',
  'RED-CROSS': 'Association',
  // `LEBANON CONG OF JEHOVAH`: a congregation abbreviated (CONG alone is a given name and a surname).
  'CONG-OF': 'Religious',
};

/** When a name holds words of several types, the first type here wins (a bank as trustee is Financial). */
export const TYPE_PRECEDENCE: readonly EntityType[] = [
  'Estate',
  'Government',
  'Religious',
  'Financial',
  'Trust',
  'Association',
  'Corporation',
];

const WORD_TYPE = new Map<string, EntityType>();
for (const t of [...TYPE_PRECEDENCE].reverse()) for (const w of ENTITY_WORDS[t]) WORD_TYPE.set(w, t);
export { WORD_TYPE };

/** Words that end an entity's name: after them a next cell is another owner, not the rest of this name. */
export const CLOSING_WORDS = new Set([
  'LLC',
  'INC',
  'INCORPORATED',
  'CORP',
  'CORPORATION',
  'LP',
  'LLP',
  'LTD',
  'LC',
  'PLLC',
  'LLLP',
  'FSB',
  'TRUST',
  'TR',
  'TRS',
  'TTEE',
  'TRUSTEE',
  'TRUSTEES',
  'PARTNERSHIP',
  'TRST',
]);

/** `&`, AND and `/`: what joins two owners in a cell. */
export const AMP = new Set(['&', 'AND', '/']);
/** `&` and AND as words: what may join two owners after a closed name (owner-names.ts ownersOfSegment). */
export const JOINS = new Set(['&', 'AND']);
/** Words that qualify a trustee (`SUC TR`, `INITIAL TRUSTEE`): dropped with the trustee word (dropMarkers). */
export const TRUSTEE_QUALIFIERS = new Set(['SUC', 'SUCC', 'SUCCESSOR', 'INITIAL', 'INCUM', 'INCUMBENT']);
/** What an estate's name ends with, before OF (`YOUNG JAMES L ESTATE OF`). */
export const ESTATE_WORDS = new Set(['ESTATE', 'EST', 'ESTATES']);
/**
 * Titles before a person's name (`REV HENRY V P WALSH`, `SMITH, DR JOHN`): no part of it. Not HON or MS, which are
 * a surname and initials as often.
 */
export const HONORIFICS = new Set(['REV', 'DR', 'MR', 'MRS']);
/**
 * Words written with a period that are not a surname closed by one (owner-tokens.ts periodForComma): given names'
 * abbreviations (`CHAS. SMITH`, `ELIZ.`), and the saints' of Spanish, Filipino and French surnames (`STA. MARIA`,
 * `STO. DOMINGO`, `STE. MARIE`).
 */
export const PERIOD_ABBREVIATIONS = new Set([
  ...['CHAS', 'THOS', 'GEO', 'JAS', 'BENJ', 'JNO', 'SAML', 'EDW', 'ROBT', 'JOS', 'WM', 'ELIZ', 'MARG', 'ALEX', 'CHR'],
  ...['STA', 'STO', 'STE'],
]);
/** "Doing business as": the name after it is the same owner's trade name. */
export const TRADE_NAME = new Set(['D/B/A', 'DBA']);
/** A trust's last word, after its trustees (owner-names.ts trustAfterTrustees): `SEIDMAN LIVING TR`, `DAIRY RD LD`. */
export const TRUST_ENDINGS = new Set(['TR', 'TRS', 'TRUST', 'TRST', 'TRUSTS', 'LD']);
/** Words between a trustee word and the trust's name (`TRUSTEE OF`, `TR U/A`): no part of the name. */
export const TRUST_LEAD_INS = new Set(['OF', 'UNDER', 'FOR', 'U/A', 'UA', 'UAD', 'U/D', 'UDT']);
