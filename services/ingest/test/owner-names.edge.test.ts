// The owner-name parser on cells made up to break it (a review read the parser as an attacker would): markers that
// are names' words too, a surname left for no one, churches named for a first name, a company's `&` before a word,
// titles, and given names and surnames that are entity words, in both orders. Each case was a wrong reading once.
import { describe, expect, it } from 'vitest';
import { type NameOrder, parseOwnerCells, recordOwners } from '../src/domain/owner-names.js';

const show = (order: NameOrder, ...cells: string[]) =>
  parseOwnerCells(cells, order).map((o) => `${o.type}: ${o.fullName} [${o.lastName ?? '-'}|${o.firstName ?? '-'}]`);

/** [order, cells, expected owners as `Type: FULL NAME [LAST|FIRST]`] */
const CASES: [NameOrder, string[], string[]][] = [
  // A co-owner that ends with the owner's surname before it (owner-persons.ts firstLastUnder): FIRST [MIDDLE] LAST
  // when its first word is clearly a first name (DANIEL: 5 times a surname's share at least); the roll's order when it
  // is a surname as often (THOMAS, TAYLOR, MIRANDA: a married name before a maiden name), no first name (EVANS), that
  // surname itself (JAMES JAMES), or an initial; after an entity, nothing to share.
  [
    'last-first',
    ['JAMES ROBERT', 'DANIEL MARY JAMES'],
    ['Individual: ROBERT JAMES [JAMES|ROBERT]', 'Individual: DANIEL MARY JAMES [JAMES|DANIEL]'],
  ],
  [
    'last-first',
    ['JAMES ROBERT', 'DANIEL JAMES'],
    ['Individual: ROBERT JAMES [JAMES|ROBERT]', 'Individual: DANIEL JAMES [JAMES|DANIEL]'],
  ],
  [
    'last-first',
    ['JAMES ROBERT & DANIEL JAMES'],
    ['Individual: ROBERT JAMES [JAMES|ROBERT]', 'Individual: DANIEL JAMES [JAMES|DANIEL]'],
  ],
  [
    'last-first',
    ['JAMES ROBERT', 'TAYLOR JAMES'],
    ['Individual: ROBERT JAMES [JAMES|ROBERT]', 'Individual: JAMES TAYLOR [TAYLOR|JAMES]'],
  ],
  // THOMAS, among the owners' births (1920-1999), is a first name six times as often as a surname: FIRST LAST.
  [
    'last-first',
    ['JAMES ROBERT', 'THOMAS JAMES'],
    ['Individual: ROBERT JAMES [JAMES|ROBERT]', 'Individual: THOMAS JAMES [JAMES|THOMAS]'],
  ],
  [
    'last-first',
    ['SMITH ROBERT', 'TAYLOR JENNIFER SMITH'],
    ['Individual: ROBERT SMITH [SMITH|ROBERT]', 'Individual: JENNIFER SMITH TAYLOR [TAYLOR|JENNIFER]'],
  ],
  [
    'last-first',
    ['LUNA JOSE', 'MIRANDA ANA LUNA'],
    ['Individual: JOSE LUNA [LUNA|JOSE]', 'Individual: ANA LUNA MIRANDA [MIRANDA|ANA]'],
  ],
  // No double surname with a surname that is a first name too (MARTIN), and no word and initials before `&` taking
  // the surname before them (a roll of surnames and initials: the attacker review's cases).
  [
    'last-first',
    ['MARTIN SUSAN', 'JONES MARTIN LEE'],
    ['Individual: SUSAN MARTIN [MARTIN|SUSAN]', 'Individual: MARTIN LEE JONES [JONES|MARTIN]'],
  ],
  [
    'last-first',
    ['DAVIS ROBERT', 'JAMES J & JAMES K'],
    ['Individual: ROBERT DAVIS [DAVIS|ROBERT]', 'Individual: J JAMES [JAMES|J]', 'Individual: K JAMES [JAMES|K]'],
  ],
  [
    'last-first',
    ['JAMES ROBERT', 'EVANS MARY JAMES'],
    ['Individual: ROBERT JAMES [JAMES|ROBERT]', 'Individual: MARY JAMES EVANS [EVANS|MARY]'],
  ],
  [
    'last-first',
    ['JAMES ROBERT', 'JAMES JAMES'],
    ['Individual: ROBERT JAMES [JAMES|ROBERT]', 'Individual: JAMES JAMES [JAMES|JAMES]'],
  ],
  // Two surnames before a first name, the second the owner's: not where that surname is a first name more often.
  [
    'last-first',
    ['JAMES ROBERT', 'SMITH JAMES ALLEN'],
    ['Individual: ROBERT JAMES [JAMES|ROBERT]', 'Individual: JAMES ALLEN SMITH [SMITH|JAMES]'],
  ],
  [
    'last-first',
    ['JONES ROBERT', 'SMITH JONES MARY K'],
    ['Individual: ROBERT JONES [JONES|ROBERT]', 'Individual: MARY K SMITH JONES [SMITH JONES|MARY]'],
  ],
  [
    'last-first',
    ['JONES ROBERT', 'SMITH JONES K'],
    ['Individual: ROBERT JONES [JONES|ROBERT]', 'Individual: JONES K SMITH [SMITH|JONES]'],
  ],
  // After a co-owner read FIRST LAST, an owner written in the roll's order is its own, not given names (review).
  [
    'last-first',
    ['NATHAN DORIS L', 'JOSEPH NATHAN & SMITH MARY K'],
    [
      'Individual: DORIS L NATHAN [NATHAN|DORIS]',
      'Individual: JOSEPH NATHAN [NATHAN|JOSEPH]',
      'Individual: MARY K SMITH [SMITH|MARY]',
    ],
  ],
  // A cell of first names only takes the surname before, but not a word before initials after initials only.
  [
    'last-first',
    ['DRUKE S A & RAMOS L S', 'CHASE M A'],
    ['Individual: S A DRUKE [DRUKE|S]', 'Individual: L S RAMOS [RAMOS|L]', 'Individual: M A CHASE [CHASE|M]'],
  ],
  // A first name opening the cell takes the surname before it in a LAST FIRST roll only: written FIRST LAST, `JOHN &
  // MARY SMITH` names no JONES; its first names before `&` take the surname after them. Not a word off the first
  // names (SMITH), nor when no owner after names a surname.
  [
    'first-last',
    ['ROBERT JONES', 'JOHN & MARY SMITH'],
    [
      'Individual: ROBERT JONES [JONES|ROBERT]',
      'Individual: JOHN SMITH [SMITH|JOHN]',
      'Individual: MARY SMITH [SMITH|MARY]',
    ],
  ],
  [
    'first-last',
    ['JOHN A & MARY & ANN B DE LA CRUZ'],
    [
      'Individual: JOHN A DE LA CRUZ [DE LA CRUZ|JOHN]',
      'Individual: MARY DE LA CRUZ [DE LA CRUZ|MARY]',
      'Individual: ANN B DE LA CRUZ [DE LA CRUZ|ANN]',
    ],
  ],
  ['first-last', ['SMITH & MARY JONES'], ['Individual: SMITH [SMITH|-]', 'Individual: MARY JONES [JONES|MARY]']],
  // A compound first name (MARY JO) shares the surname before it, in either order; in a LAST FIRST roll without
  // commas only where its first word is a first name by the lists (BRUMMEL ANN is ANN BRUMMEL), and never where it
  // is a common surname (JONES ANN).
  [
    'first-last',
    ['JOHN SMITH & MARY JO'],
    ['Individual: JOHN SMITH [SMITH|JOHN]', 'Individual: MARY JO SMITH [SMITH|MARY]'],
  ],
  [
    'last-first',
    ['SMITH JOHN & MARY JO'],
    ['Individual: JOHN SMITH [SMITH|JOHN]', 'Individual: MARY JO SMITH [SMITH|MARY]'],
  ],
  [
    'last-first',
    ['SMITH JOHN', 'BRUMMEL ANN'],
    ['Individual: JOHN SMITH [SMITH|JOHN]', 'Individual: ANN BRUMMEL [BRUMMEL|ANN]'],
  ],
  [
    'last-first',
    ['SMITH JOHN & JONES ANN'],
    ['Individual: JOHN SMITH [SMITH|JOHN]', 'Individual: ANN JONES [JONES|ANN]'],
  ],
  // The reviews' cases: not a compound first name where a word is the family's surname (PIERRE, MARIE), nor, in a
  // LAST FIRST cell without commas, a first word the SSA gives to boys (ELIAS); a FIRST LAST cell's compound
  // first name gives the owner before it no surname (ANN MARIE) nor takes a word read as a surname alone (JOHN / MARY
  // ANN), where a LAST FIRST roll's surname alone gives its own (SMITH / MARY ANN); a FIRST LAST roll's last word is
  // the surname even where the lists know it as a first name (STEVEN CONNOR).
  [
    'last-first',
    ['PIERRE GUITO', 'PIERRE MARIE'],
    ['Individual: GUITO PIERRE [PIERRE|GUITO]', 'Individual: MARIE PIERRE [PIERRE|MARIE]'],
  ],
  [
    'last-first',
    ['DORSAINVIL JEAN', 'PIERRE MARIE'],
    ['Individual: JEAN DORSAINVIL [DORSAINVIL|JEAN]', 'Individual: MARIE PIERRE [PIERRE|MARIE]'],
  ],
  [
    'last-first',
    ['SMITH JOHN', 'ELIAS MARIE'],
    ['Individual: JOHN SMITH [SMITH|JOHN]', 'Individual: MARIE ELIAS [ELIAS|MARIE]'],
  ],
  // JEAN and WILLIE, boys' names in 2010, were girls' too among the owners' births (1920-1999): compound first names.
  [
    'last-first',
    ['SMITH JOHN', 'JEAN MARIE'],
    ['Individual: JOHN SMITH [SMITH|JOHN]', 'Individual: JEAN MARIE SMITH [SMITH|JEAN]'],
  ],
  [
    'last-first',
    ['SMITH JOHN & WILLIE MAE'],
    ['Individual: JOHN SMITH [SMITH|JOHN]', 'Individual: WILLIE MAE SMITH [SMITH|WILLIE]'],
  ],
  // JO or LOU after `&` with commas: a compound first name after a woman's name on the lists (BETTY JO), else a
  // surname of her own (MINJI JO, MEI LOU: Korean and Chinese wives keep theirs); ANN, MARIE after any first word
  // (CELINA MARIE, LEEY ANNE: the roll's, off the lists).
  ['last-first', ['PARK, JOHN & MINJI JO'], ['Individual: JOHN PARK [PARK|JOHN]', 'Individual: MINJI JO [JO|MINJI]']],
  ['last-first', ['PARK, JOHN & MEI LOU'], ['Individual: JOHN PARK [PARK|JOHN]', 'Individual: MEI LOU [LOU|MEI]']],
  [
    'last-first',
    ['MAXEY, JOHN & BETTY JO'],
    ['Individual: JOHN MAXEY [MAXEY|JOHN]', 'Individual: BETTY JO MAXEY [MAXEY|BETTY]'],
  ],
  [
    'last-first',
    ['GARIBAY, JUAN CARLOS & CELINA MARIE'],
    ['Individual: JUAN CARLOS GARIBAY [GARIBAY|JUAN]', 'Individual: CELINA MARIE GARIBAY [GARIBAY|CELINA]'],
  ],
  // Two words read LAST FIRST, a first name clearly and a word on no first-name list, turn FIRST LAST before a cell of
  // their family (owner-persons.ts turnsBeforeKinCell): given names (and `&`) only, or the same second word last.
  [
    'last-first',
    ['JOHN VACCA', 'JOANN & MARY'],
    [
      'Individual: JOHN VACCA [VACCA|JOHN]',
      'Individual: JOANN VACCA [VACCA|JOANN]',
      'Individual: MARY VACCA [VACCA|MARY]',
    ],
  ],
  // Not where the next cell, read under the owner so turned, does not share its surname (MARY ELLEN is read ELLEN
  // MARY): the roll's order.
  [
    'last-first',
    ['JOHN VACCA', 'MARY ELLEN'],
    ['Individual: VACCA JOHN [JOHN|VACCA]', 'Individual: ELLEN MARY [MARY|ELLEN]'],
  ],
  // Nor before a cell that opens with the same word (a family GEORGE), an initial, or the same name (a JR), nor
  // another surname; nor where the second word is a first name or an initial.
  [
    'last-first',
    ['GEORGE FINNY', 'GEORGE WELGANE'],
    ['Individual: FINNY GEORGE [GEORGE|FINNY]', 'Individual: WELGANE GEORGE [GEORGE|WELGANE]'],
  ],
  ['last-first', ['JOHN VACCA', 'A'], ['Individual: VACCA JOHN [JOHN|VACCA]', 'Individual: A JOHN [JOHN|A]']],
  [
    'last-first',
    ['JOHN VACCA', 'JOHN VACCA JR'],
    ['Individual: VACCA JOHN [JOHN|VACCA]', 'Individual: VACCA JOHN JR [JOHN|VACCA]'],
  ],
  [
    'last-first',
    ['JOHN VACCA', 'SMITH MARY'],
    ['Individual: VACCA JOHN [JOHN|VACCA]', 'Individual: MARY SMITH [SMITH|MARY]'],
  ],
  [
    'last-first',
    ['JAMES ROBERT', 'MARY'],
    ['Individual: ROBERT JAMES [JAMES|ROBERT]', 'Individual: MARY JAMES [JAMES|MARY]'],
  ],
  ['last-first', ['JAMES R', 'MARY'], ['Individual: R JAMES [JAMES|R]', 'Individual: MARY JAMES [JAMES|MARY]']],
  // A FIRST LAST roll reads it so anyway.
  [
    'first-last',
    ['JOHN VACCA', 'JOANN'],
    ['Individual: JOHN VACCA [VACCA|JOHN]', 'Individual: JOANN VACCA [VACCA|JOANN]'],
  ],
  // A cell that is only the surname before it again names no one new (was HILL HILL), but a trustee's.
  ['last-first', ['JAMES HILL', 'HILL'], ['Individual: JAMES HILL [HILL|JAMES]']],
  ['last-first', ['SMITH JOHN', 'SMITH'], ['Individual: JOHN SMITH [SMITH|JOHN]']],
  [
    'last-first',
    ['SMITH JOHN', 'SMITH TR'],
    ['Individual: JOHN SMITH [SMITH|JOHN]', 'Trustee: SMITH SMITH [SMITH|SMITH]'],
  ],
  // An older first name (DOROTHY, off the 2010 list) before an initial: FIRST M LAST.
  ['last-first', ['DOROTHY M CONNOR'], ['Individual: DOROTHY M CONNOR [CONNOR|DOROTHY]']],
  // Surnames the older births' list gives as first names too, but no more often (KIM) or rarely (HARRIS, WARD): still
  // surnames, as by the 2010 list alone.
  ['last-first', ['KIM, SOO J & KIM MI K'], ['Individual: SOO J KIM [KIM|SOO]', 'Individual: MI K KIM [KIM|MI]']],
  ['last-first', ['KIM SOO', 'KIM YOUNG'], ['Individual: SOO KIM [KIM|SOO]', 'Individual: YOUNG KIM [KIM|YOUNG]']],
  ['last-first', ['HARRIS J THOMAS'], ['Individual: J THOMAS HARRIS [HARRIS|J]']],
  // A surname that is a first name too, opening a co-owner after `&` before first names and initials only: that
  // family's (was JAMES MARY K JAMES), where a common surname or a second given name after it keeps its own reading.
  [
    'last-first',
    ['JAMES, ROBERT & JAMES MARY K'],
    ['Individual: ROBERT JAMES [JAMES|ROBERT]', 'Individual: MARY K JAMES [JAMES|MARY]'],
  ],
  [
    'last-first',
    ['JAMES, ROBERT & JAMES ROBERT JR'],
    ['Individual: ROBERT JAMES [JAMES|ROBERT]', 'Individual: ROBERT JAMES JR [JAMES|ROBERT]'],
  ],
  [
    'last-first',
    ['LEE, DAVID W & LEE ANN M'],
    ['Individual: DAVID W LEE [LEE|DAVID]', 'Individual: LEE ANN M LEE [LEE|LEE]'],
  ],
  [
    'last-first',
    ['THOMAS, JOHN & THOMAS A JONES'],
    ['Individual: JOHN THOMAS [THOMAS|JOHN]', 'Individual: THOMAS A JONES [JONES|THOMAS]'],
  ],
  [
    'last-first',
    ['HARRIS, JOHN & HARRIS MARY'],
    ['Individual: JOHN HARRIS [HARRIS|JOHN]', 'Individual: MARY HARRIS [HARRIS|MARY]'],
  ],
  [
    'last-first',
    ['MARIE JOHN', 'ANN MARIE'],
    ['Individual: JOHN MARIE [MARIE|JOHN]', 'Individual: ANN MARIE [MARIE|ANN]'],
  ],
  ['last-first', ['SMITH', 'MARY ANN'], ['Individual: SMITH [SMITH|-]', 'Individual: MARY ANN SMITH [SMITH|MARY]']],
  ['first-last', ['JOHN & ANN MARIE'], ['Individual: JOHN [JOHN|-]', 'Individual: ANN MARIE [MARIE|ANN]']],
  // Written FIRST LAST, the last word is the surname unless the first is a woman's name on the lists (HYUN JO keeps
  // hers; MARY JO is a SMITH).
  ['first-last', ['KEVIN PARK & HYUN JO'], ['Individual: KEVIN PARK [PARK|KEVIN]', 'Individual: HYUN JO [JO|HYUN]']],
  ['first-last', ['KEVIN PARK', 'HYUN JO'], ['Individual: KEVIN PARK [PARK|KEVIN]', 'Individual: HYUN JO [JO|HYUN]']],
  [
    'first-last',
    ['DAVID & STEVEN CONNOR'],
    ['Individual: DAVID CONNOR [CONNOR|DAVID]', 'Individual: STEVEN CONNOR [CONNOR|STEVEN]'],
  ],
  ['first-last', ['JOHN', 'MARY ANN'], ['Individual: JOHN [JOHN|-]', 'Individual: MARY ANN [ANN|MARY]']],
  // After `&` in a LAST, FIRST cell, a co-owner opening with the surname before it is that family's, LAST FIRST (the
  // comma's owner's order); not where that surname is clearly a first name (JAMES SMITH).
  [
    'last-first',
    ['SMITH, JOHN & SMITH MARY K'],
    ['Individual: JOHN SMITH [SMITH|JOHN]', 'Individual: MARY K SMITH [SMITH|MARY]'],
  ],
  [
    'last-first',
    ['SMITH, JOHN & SMITH JONES, MARY'],
    ['Individual: JOHN SMITH [SMITH|JOHN]', 'Individual: MARY SMITH JONES [SMITH JONES|MARY]'],
  ],
  [
    'last-first',
    ['JAMES, ROBERT & JAMES SMITH'],
    ['Individual: ROBERT JAMES [JAMES|ROBERT]', 'Individual: JAMES SMITH [SMITH|JAMES]'],
  ],
  ['first-last', ['LI, XUDONG & LI JIN'], ['Individual: XUDONG LI [LI|XUDONG]', 'Individual: JIN LI [LI|JIN]']],
  // The review's cases: a surname that is a first name too (LEE, THOMAS) opens a co-owner's given names, and a
  // Vietnamese given name (MAI) or a Dutch VAN after `&` keeps its reading.
  [
    'last-first',
    ['LEE, DAVID W & LEE ANN M'],
    ['Individual: DAVID W LEE [LEE|DAVID]', 'Individual: LEE ANN M LEE [LEE|LEE]'],
  ],
  [
    'last-first',
    ['THOMAS, JOHN & THOMAS A JONES'],
    ['Individual: JOHN THOMAS [THOMAS|JOHN]', 'Individual: THOMAS A JONES [JONES|THOMAS]'],
  ],
  [
    'last-first',
    ['NGUYEN, TUAN V & MAI THI T'],
    ['Individual: TUAN V NGUYEN [NGUYEN|TUAN]', 'Individual: MAI THI T NGUYEN [NGUYEN|MAI]'],
  ],
  [
    'last-first',
    ['DOE, JOHN & KIM VAN DYKE'],
    ['Individual: JOHN DOE [DOE|JOHN]', 'Individual: KIM VAN DYKE [VAN DYKE|KIM]'],
  ],
  // Written FIRST LAST: no surname from a compound first name (MARY ANN names none), nor for a word as often a surname
  // (TAYLOR).
  ['first-last', ['JOHN & MARY ANN'], ['Individual: JOHN [JOHN|-]', 'Individual: MARY ANN [ANN|MARY]']],
  ['first-last', ['TAYLOR & MARY SMITH'], ['Individual: TAYLOR [TAYLOR|-]', 'Individual: MARY SMITH [SMITH|MARY]']],
  // No second surname after a first name: not MARY SMITH, first name JONES.
  [
    'last-first',
    ['SMITH JOHN', 'MARY SMITH JONES'],
    ['Individual: JOHN SMITH [SMITH|JOHN]', 'Individual: SMITH JONES MARY [MARY|SMITH]'],
  ],
  [
    'last-first',
    ['ACME LLC', 'JOSEPH NATHAN'],
    ['Corporation: ACME LLC [-|-]', 'Individual: NATHAN JOSEPH [JOSEPH|NATHAN]'],
  ],
  [
    'last-first',
    ['DE JESUS MARIA', 'JUAN DE JESUS JR'],
    ['Individual: MARIA DE JESUS [DE JESUS|MARIA]', 'Individual: JUAN DE JESUS JR [DE JESUS|JUAN]'],
  ],
  // `(EST)` is an estate's word that closes its owner before an owner of its own (the thirty-seventh pass's review: it
  // took a co-owner into the estate); the character that marks it while a cell is read is no one's word elsewhere.
  [
    'last-first',
    ['SMITH, JOHN (EST) & JONES, MARY'],
    ['Estate: SMITH, JOHN EST [-|-]', 'Individual: MARY JONES [JONES|MARY]'],
  ],
  ['last-first', ['SMITH JOHN \uE000'], ['Individual: JOHN SMITH [SMITH|JOHN]']],
  [
    'last-first',
    ['SMITH, JOHN \uE000 & JONES, MARY'],
    ['Individual: JOHN SMITH [SMITH|JOHN]', 'Individual: MARY JONES [JONES|MARY]'],
  ],
  ['last-first', ['SMITH, JOHN (\uE000EST)'], ['Estate: SMITH, JOHN EST [-|-]']],
  // JT TEN, TEN ENT, TEN COM: both words go (JT alone was a surname).
  [
    'last-first',
    ['SMITH JOHN A & MARY B JT TEN'],
    ['Individual: JOHN A SMITH [SMITH|JOHN]', 'Individual: MARY B SMITH [SMITH|MARY]'],
  ],
  ['last-first', ['SMITH JOHN JT TEN'], ['Individual: JOHN SMITH [SMITH|JOHN]']],
  [
    'first-last',
    ['JOHN SMITH & MARY SMITH JT TEN'],
    ['Individual: JOHN SMITH [SMITH|JOHN]', 'Individual: MARY SMITH [SMITH|MARY]'],
  ],
  [
    'last-first',
    ['SMITH JOHN & MARY TEN ENT'],
    ['Individual: JOHN SMITH [SMITH|JOHN]', 'Individual: MARY SMITH [SMITH|MARY]'],
  ],
  // A surname after first names closed by a trustee word or a suffix, nothing after it: a person of a surname alone
  // (never a person without one).
  [
    'last-first',
    ['SMITH, JOHN A & MARY B, TRUSTEES JONES'],
    ['Trustee: JOHN A SMITH [SMITH|JOHN]', 'Trustee: MARY B SMITH [SMITH|MARY]', 'Trustee: JONES [JONES|-]'],
  ],
  [
    'last-first',
    ['HUFFSTETLER, EMILY B & ROGER D, JR BONDA'],
    [
      'Individual: EMILY B HUFFSTETLER [HUFFSTETLER|EMILY]',
      'Individual: ROGER D HUFFSTETLER JR [HUFFSTETLER|ROGER]',
      'Individual: BONDA [BONDA|-]',
    ],
  ],
  // A church named for a first name is a church, whatever the name lists say of the two words.
  ['last-first', ['GRACE CHURCH'], ['Religious: GRACE CHURCH [-|-]']],
  ['last-first', ['TRINITY CHURCH'], ['Religious: TRINITY CHURCH [-|-]']],
  // A company's `&` before words that name no owner alone stays in its name.
  ['last-first', ['ABC INC AND SUBSIDIARIES'], ['Corporation: ABC INC AND SUBSIDIARIES [-|-]']],
  ['last-first', ['JONES LLC & MARY'], ['Corporation: JONES LLC & MARY [-|-]']],
  // Titles go; HON is a surname as often.
  ['last-first', ['SMITH, DR JOHN'], ['Individual: JOHN SMITH [SMITH|JOHN]']],
  ['last-first', ['DR JOHN SMITH'], ['Individual: JOHN SMITH [SMITH|JOHN]']],
  ['last-first', ['HON KWOK WAI'], ['Individual: KWOK WAI HON [HON|KWOK]']],
  ['last-first', ['MR COOPER'], ['Individual: COOPER MR [MR|COOPER]']],
  // Given names and surnames that are entity words, in both orders.
  [
    'first-last',
    ['HOA T NGUYEN & LAN NGUYEN'],
    ['Individual: HOA T NGUYEN [NGUYEN|HOA]', 'Individual: LAN NGUYEN [NGUYEN|LAN]'],
  ],
  [
    'first-last',
    ['DAVID W RECTOR & BARBARA M RECTOR'],
    ['Individual: DAVID W RECTOR [RECTOR|DAVID]', 'Individual: BARBARA M RECTOR [RECTOR|BARBARA]'],
  ],
  [
    'last-first',
    ['SHENOY CHELSEA RECTOR & JOHN'],
    ['Individual: CHELSEA RECTOR SHENOY [SHENOY|CHELSEA]', 'Individual: JOHN SHENOY [SHENOY|JOHN]'],
  ],
  [
    'last-first',
    ['JONES, MARY RECTOR & JOHN'],
    ['Individual: MARY RECTOR JONES [JONES|MARY]', 'Individual: JOHN JONES [JONES|JOHN]'],
  ],
  [
    'last-first',
    ['RECTOR & VISITORS OF THE UNIVERSITY OF VIRGINIA'],
    ['Government: RECTOR & VISITORS OF THE UNIVERSITY OF VIRGINIA [-|-]'],
  ],
  ['last-first', ['NGUYEN LOAN TRUST'], ['Trust: NGUYEN LOAN TRUST [-|-]']],
  ['last-first', ['BOARD JOHN'], ['Individual: JOHN BOARD [BOARD|JOHN]']],
  // An executor's word before a care-of or a trustee word goes.
  ['last-first', ['DOE JOHN EX C/O MARY SMITH'], ['Individual: JOHN DOE [DOE|JOHN]']],
  ['last-first', ['DOE JOHN EX TR'], ['Trustee: JOHN DOE [DOE|JOHN]']],
  // A period for a comma after the first surname only: not after an abbreviation, a title, an entity's word, nor in
  // an entity's name.
  ['last-first', ['CHAS. SMITH'], ['Individual: CHAS. SMITH [SMITH|CHAS.]']],
  ['last-first', ['MRS. SMITH JANE'], ['Individual: JANE SMITH [SMITH|JANE]']],
  ['last-first', ['NATL. BANK OF HANOVER'], ['Financial: NATL. BANK OF HANOVER [-|-]']],
  ['last-first', ['PHILA HOUSING DEVEL CORP.'], ['Corporation: PHILA HOUSING DEVEL CORP. [-|-]']],
  ['last-first', ['ST. JOHN, MARY'], ['Individual: MARY ST. JOHN [ST. JOHN|MARY]']],
  // Not in a trust's, an estate's or an entity's cell (their names as written), nor where the period is a surname's.
  ['last-first', ['SMITH. JOHN TR'], ['Trustee: JOHN SMITH. [SMITH.|JOHN]']],
  ['last-first', ['CITY. OF PHILADELPHIA'], ['Government: CITY. OF PHILADELPHIA [-|-]']],
  ['last-first', ['STA. MARIA, JUAN'], ['Individual: JUAN STA. MARIA [STA. MARIA|JUAN]']],
  ['last-first', ['DEL. ROSARIO MARIA'], ['Individual: MARIA DEL. ROSARIO [DEL. ROSARIO|MARIA]']],
  ['last-first', ['TRS. SMITH JOHN'], ['Trustee: JOHN SMITH [SMITH|JOHN]']],
  // Two words: as before (a given name's abbreviation as often as a surname).
  ['last-first', ['ELIZ. SMITH'], ['Individual: ELIZ. SMITH [SMITH|ELIZ.]']],
  // A FIRST LAST roll's period is never a LAST FIRST comma.
  ['first-last', ['JOHN. A SMITH'], ['Individual: JOHN. A SMITH [SMITH|JOHN.]']],
  // HOA, a given name too, after a Vietnamese middle name (THI, VAN); an association's after a place's name.
  ['last-first', ['KIM THI THANH HOA'], ['Individual: THI THANH HOA KIM [KIM|THI]']],
  ['last-first', ['NGUYEN VAN HOA'], ['Individual: VAN HOA NGUYEN [NGUYEN|VAN]']],
  [
    'last-first',
    ['NGUYEN VAN HOA & TRAN THI HOA'],
    ['Individual: VAN HOA NGUYEN [NGUYEN|VAN]', 'Individual: THI HOA TRAN [TRAN|THI]'],
  ],
  // So in a cell with commas (after the surname's comma, or after `&` in the family's name), and before a trustee's
  // word.
  ['last-first', ['NGUYEN, THI HOA'], ['Individual: THI HOA NGUYEN [NGUYEN|THI]']],
  [
    'last-first',
    ['NGUYEN, AN & NGUYEN THI HOA'],
    ['Individual: AN NGUYEN [NGUYEN|AN]', 'Individual: THI HOA NGUYEN [NGUYEN|THI]'],
  ],
  [
    'last-first',
    ['NGUYEN, BAO & TRAN, THI HOA'],
    ['Individual: BAO NGUYEN [NGUYEN|BAO]', 'Individual: THI HOA TRAN [TRAN|THI]'],
  ],
  ['last-first', ['TRAN THI HOA, TRUSTEE'], ['Trustee: THI HOA TRAN [TRAN|THI]']],
  // FANNIE MAE is a wife's given names after `&` in a cell that opens with a person's `LAST, FIRST` (owner-names
  // real test: VINCI); the bank elsewhere, a trustee's comma or a company's before it included.
  ['last-first', ['FANNIE MAE'], ['Financial: FANNIE MAE [-|-]']],
  ['last-first', ['SMITH JOHN TR, FANNIE MAE'], ['Financial: SMITH JOHN TR, FANNIE MAE [-|-]']],
  ['last-first', ['ACME LLC, FANNIE MAE'], ['Financial: ACME LLC, FANNIE MAE [-|-]']],
  ['last-first', ['JONES, FANNIE MAE'], ['Individual: FANNIE MAE JONES [JONES|FANNIE]']],
  [
    'last-first',
    ['VINCI, UMBERTO V & FANNIE MAE TTEES'],
    ['Trustee: UMBERTO V VINCI [VINCI|UMBERTO]', 'Trustee: FANNIE MAE VINCI [VINCI|FANNIE]'],
  ],
  [
    'last-first',
    ['TEMPLE, ROBERT & FANNIE MAE'],
    ['Individual: ROBERT TEMPLE [TEMPLE|ROBERT]', 'Individual: FANNIE MAE TEMPLE [TEMPLE|FANNIE]'],
  ],
  ['last-first', ['ACME LLC, & FANNIE MAE'], ['Financial: ACME LLC, & FANNIE MAE [-|-]']],
  ['last-first', ['MADISON PLACE HOA'], ['Association: MADISON PLACE HOA [-|-]']],
  ['last-first', ['VAN BUREN HOA'], ['Association: VAN BUREN HOA [-|-]']],
  ['last-first', ['LAKE VAN NESS HOA'], ['Association: LAKE VAN NESS HOA [-|-]']],
  ['last-first', ['PARK VAN HOA'], ['Association: PARK VAN HOA [-|-]']],
  ['last-first', ['THE VAN NESS HOA'], ['Association: THE VAN NESS HOA [-|-]']],
  // After `&`, a first and a middle name share the surname before (an audit of the real rolls found 37 read as FIRST
  // LAST: LISA of a family ANN); a surname on the census' list, a word off the first names, a name after an initial
  // or a man's name after a woman's keeps its own.
  [
    'last-first',
    ['WALLACE, TIMOTHY J & LISA ANN'],
    ['Individual: TIMOTHY J WALLACE [WALLACE|TIMOTHY]', 'Individual: LISA ANN WALLACE [WALLACE|LISA]'],
  ],
  [
    'last-first',
    ['DION, MAURICE & MARY ELLEN'],
    ['Individual: MAURICE DION [DION|MAURICE]', 'Individual: MARY ELLEN DION [DION|MARY]'],
  ],
  // Without commas the roll's own order reads the next owner whole (a surname that is a first name too: HOLDEN), and
  // so two given names as LAST FIRST (a known limit, docs/data.md).
  [
    'last-first',
    ['DION MAURICE & MARY ELLEN'],
    ['Individual: MAURICE DION [DION|MAURICE]', 'Individual: ELLEN MARY [MARY|ELLEN]'],
  ],
  [
    'last-first',
    ['SMITH JOHN & HOLDEN BRANDON'],
    ['Individual: JOHN SMITH [SMITH|JOHN]', 'Individual: BRANDON HOLDEN [HOLDEN|BRANDON]'],
  ],
  [
    'first-last',
    ['JOHN SMITH & WILLIAM LINCOLN'],
    ['Individual: JOHN SMITH [SMITH|JOHN]', 'Individual: WILLIAM LINCOLN [LINCOLN|WILLIAM]'],
  ],
  [
    'last-first',
    ['JONES, ROBERT & JOHN PAUL'],
    ['Individual: ROBERT JONES [JONES|ROBERT]', 'Individual: JOHN PAUL [PAUL|JOHN]'],
  ],
  [
    'last-first',
    ['SMITH, JOHN & JANE DOE'],
    ['Individual: JOHN SMITH [SMITH|JOHN]', 'Individual: JANE DOE [DOE|JANE]'],
  ],
  [
    'last-first',
    ['TROTT, RYAN E & AMANDA M FINN'],
    ['Individual: RYAN E TROTT [TROTT|RYAN]', 'Individual: AMANDA M FINN [FINN|AMANDA]'],
  ],
  [
    'last-first',
    ['EAMES, MATTHEW & TATIANA JORGE'],
    ['Individual: MATTHEW EAMES [EAMES|MATTHEW]', 'Individual: TATIANA JORGE [JORGE|TATIANA]'],
  ],
  // The same audit: a congregation abbreviated, an incumbent trustee; CONG alone a name; a city's land bank is typed
  // as a bank (LAND BANK also names the Farm Credit lenders: a known limit, docs/data.md).
  ['last-first', ['PHILADELPHIA LAND BANK'], ['Financial: PHILADELPHIA LAND BANK [-|-]']],
  ['last-first', ['JONES, MARY INCUMBENT TRUSTEE'], ['Trustee: MARY JONES [JONES|MARY]']],
  ['last-first', ['LEBANON CONG OF JEHOVAH'], ['Religious: LEBANON CONG OF JEHOVAH [-|-]']],
  ['last-first', ['NGUYEN CONG'], ['Individual: CONG NGUYEN [NGUYEN|CONG]']],
  ['last-first', ['BERGER, CAROLE INCUM TTEE'], ['Trustee: CAROLE BERGER [BERGER|CAROLE]']],
];

describe('owner cells made up to break the parser', () => {
  it.each(CASES.map((c) => [`${c[0]}: ${c[1].join(' / ')}`, c] as const))('%s', (_, [order, cells, owners]) => {
    expect(show(order, ...cells)).toEqual(owners);
  });

  it('keeps as owner2 no person without a surname, and no owner twice', () => {
    for (const [order, cells] of CASES) {
      const [owner1, owner2] = recordOwners(parseOwnerCells(cells, order));
      for (const o of [owner1, owner2])
        if (o && (o.type === 'Individual' || o.type === 'Trustee'))
          expect(o.lastName, cells.join(' / ')).not.toBeNull();
      if (owner1 && owner2) expect(owner2.fullName).not.toBe(owner1.fullName);
    }
  });
});

describe('owner names, a surname of initials only', () => {
  it('is passed to no compound first name (JOHN A & MARIE LOUISE written FIRST LAST: MARIE LOUISE is no A)', () => {
    for (const cell of ['JOHN A & MARIE LOUISE', 'JOHN A & ANN MARIE', 'ROBERT J & MARY ANN']) {
      const owners = parseOwnerCells([cell], 'first-last');
      expect(owners[1]?.lastName, cell).not.toMatch(/^[A-Z]$/);
    }
  });
});
