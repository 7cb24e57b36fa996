// The resolution rules of owner entities (issue 37, docs/data.md "Owner entities"), one by one on the keys they make.
import { describe, expect, it } from 'vitest';
import { entityNameKey } from '@pra/core/address';
import { idsByRecord, mailingKey, ownerMentionKey, personParts, recordMentions } from '../src/domain/owner-keys.js';
import { pickByMiddle } from '../src/data/owner-registry.js';
import type { OwnerInput } from '../src/domain/property-input.js';

const person = (first: string, last: string, full = `${first} ${last}`, type = 'Individual'): OwnerInput => ({
  firstName: first,
  lastName: last,
  fullName: full,
  type,
});
const entity = (name: string, type = 'Corporation'): OwnerInput => ({
  firstName: null,
  lastName: null,
  fullName: name,
  type,
});
const mail = (line1: string, zip = '19103', city = 'PHILADELPHIA', state = 'PA') => ({ line1, city, state, zip });
const keyOf = (o: OwnerInput, m: ReturnType<typeof mail> | null = mail('100 MARKET ST'), state = 'PA', id = 1) =>
  ownerMentionKey(o, { state, mailing: m }, id);

describe('entity names', () => {
  it.each([
    ['ACME HOLDINGS LLC', 'ACME HOLDINGS, L.L.C.'],
    ['ACME HOLDINGS LLC', 'The Acme Holdings L L C'],
    ['ACME HOLDINGS LLC', 'ACME HOLDINGS LIMITED LIABILITY COMPANY'],
    ['WIDGET INC', 'WIDGET INCORPORATED'],
    ['WIDGET INC', 'Widget, Inc.'],
    ['SMITH FAMILY TRUST', 'SMITH FAMILY TR'],
    ['SMITH FAMILY TRUST', 'SMITH FAMILY TRUST TTEE'],
    ['ST JOHNS CHURCH', "ST. JOHN'S CHURCH"],
    ['BROWN AND SONS CO', 'BROWN & SONS COMPANY'],
  ])('%s is %s', (a, b) => {
    expect(entityNameKey(a)).toBe(entityNameKey(b));
  });
  it.each([
    ['ACME HOLDINGS LLC', 'ACME HOLDINGS II LLC'],
    ['SMITH FAMILY TRUST', 'SMITH FAMILY LLC'],
    ['WIDGET INC', 'WIDGETS INC'],
  ])('%s is not %s', (a, b) => {
    expect(entityNameKey(a)).not.toBe(entityNameKey(b));
  });
  it('joins one entity wherever it is mailed in a state, and not across states', () => {
    const a = keyOf(entity('ACME HOLDINGS LLC'), mail('1 A ST'));
    expect(keyOf(entity('ACME HOLDINGS, L.L.C.'), mail('9 OTHER RD', '19147'))!.key).toBe(a!.key);
    expect(keyOf(entity('ACME HOLDINGS LLC'), mail('1 A ST'), 'VA')!.key).not.toBe(a!.key);
  });
});

describe('people', () => {
  it('are last + first (+ suffix) at a mailing address, as the lookups normalise addresses', () => {
    const a = keyOf(person('JOHN', 'SMITH'), mail('100 Market Street'));
    expect(keyOf(person('JOHN', 'SMITH'), mail('100 MARKET ST', '19103-1234'))!.key).toBe(a!.key);
    expect(keyOf(person('JOHN', 'SMITH'), mail('100 MARKET ST', '19103', 'PITTSBURGH'))!.key).not.toBe(a!.key);
    // Two JOHN SMITHs with different mailing addresses are two owners.
    expect(keyOf(person('JOHN', 'SMITH'), mail('7 ELM AVE', '22902', 'CHARLOTTESVILLE', 'VA'))!.key).not.toBe(a!.key);
    // Father and son at one address.
    expect(keyOf(person('JOHN', 'SMITH', 'JOHN SMITH JR'))!.key).not.toBe(a!.key);
    // A couple: two people.
    expect(keyOf(person('MARY', 'SMITH'))!.key).not.toBe(a!.key);
    // The person as trustee holds in another right.
    expect(keyOf(person('JOHN', 'SMITH', 'JOHN SMITH TRUSTEE', 'Trustee'))!.key).not.toBe(a!.key);
  });
  it('keep the middle initial apart from the key', () => {
    expect(personParts(person('JOHN', 'SMITH', 'JOHN A SMITH'))).toMatchObject({ middle: 'A', suffix: '' });
    expect(personParts(person('JOHN', 'SMITH', 'JOHN ALLEN SMITH JR'))).toMatchObject({ middle: 'A', suffix: 'JR' });
    expect(personParts(person('MARY', 'VAN DER BERG', 'MARY VAN DER BERG'))).toMatchObject({ middle: '' });
    expect(keyOf(person('JOHN', 'SMITH', 'JOHN A SMITH'))!.key).toBe(keyOf(person('JOHN', 'SMITH'))!.key);
  });
  it('join by middle initial: the same or none; two different initials are two people', () => {
    const rows = [
      { middle: 'A', ownerId: 5 },
      { middle: '', ownerId: 7 },
    ];
    expect(pickByMiddle(rows, 'A')).toBe(5);
    expect(pickByMiddle(rows, 'B')).toBe(7);
    expect(pickByMiddle([{ middle: 'A', ownerId: 5 }], 'B')).toBeUndefined();
    expect(pickByMiddle([{ middle: 'A', ownerId: 5 }], '')).toBe(5);
    expect(pickByMiddle([], '')).toBeUndefined();
  });
  it('without a mailing address are joined by nothing but their record', () => {
    expect(keyOf(person('JOHN', 'SMITH'), null, 'PA', 1)!.key).not.toBe(
      keyOf(person('JOHN', 'SMITH'), null, 'PA', 2)!.key,
    );
    expect(mailingKey(mail(''))).toBeNull();
    expect(mailingKey(mail('PO BOX 12', ''))).toBe('PO BOX 12|PHILADELPHIA|PA');
    // PO box spellings are one box; a ZIP written wrong does not split an address of one city.
    expect(mailingKey(mail('P OBOX 402'))).toBe(mailingKey(mail('P.O. Box 402')));
    expect(mailingKey(mail('513 HARRIS RD', '22903'))).toBe(mailingKey(mail('513 Harris Road', '22901')));
    expect(mailingKey(mail('513 HARRIS RD', '22903', ''))).toBe('513 HARRIS RD|22903');
  });
});

describe('a record', () => {
  it('has four mentions, owner1 to owner4, null where it names none', () => {
    const none = { owner2: null, owner3: null, owner4: null };
    const m = recordMentions(40, [
      { state: 'PA', mailing: mail('1 A ST'), ...none, owner1: person('JOHN', 'SMITH') },
      { state: 'PA', mailing: null, ...none, owner1: entity('...'), owner2: entity('ACME LLC') },
      { state: 'PA', mailing: null, ...none, owner1: entity('A LLC'), owner4: entity('D LLC') },
    ]);
    expect(m.map((x) => x && `${x.propertyId}:${x.seq}`)).toEqual([
      '40:1',
      null,
      null,
      null,
      null,
      '41:2',
      null,
      null,
      '42:1',
      null,
      null,
      '42:4',
    ]);
    expect(idsByRecord([1, null, 3, 4, 5, 6, null, null])).toEqual([
      [1, null, 3, 4],
      [5, 6, null, null],
    ]);
    expect(() => idsByRecord([1, 2])).toThrow(/do not make records of 4 owners each/);
  });
});
