// Generated from the OpenAPI document by `npm run client:generate`; do not edit. CI fails when it is not current.
export interface paths {
    "/property/address": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Property records at a street address
         * @description Requires `address` with `city`+`state` or with `zip` (alternative names `locality`, `countrySubd`, `postal1`). Addresses are matched after USPS Publication 28 normalisation (suffixes, directionals, ordinals, unit designators, case, punctuation, ZIP+4). An address without a unit returns every unit at it, paginated. Every alias returns the full record. Billing: 1 credit per property returned; errors cost 0. When credits run out mid-page, fewer records are returned, `truncated_by_credits` is true and `records_returned` is the number billed. Send an `Idempotency-Key` to retry safely.
         */
        get: operations["getPropertyByAddress"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/property/detail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Compatibility alias of /property/address
         * @description Requires `address` with `city`+`state` or with `zip` (alternative names `locality`, `countrySubd`, `postal1`). Addresses are matched after USPS Publication 28 normalisation (suffixes, directionals, ordinals, unit designators, case, punctuation, ZIP+4). An address without a unit returns every unit at it, paginated. Every alias returns the full record. Billing: 1 credit per property returned; errors cost 0. When credits run out mid-page, fewer records are returned, `truncated_by_credits` is true and `records_returned` is the number billed. Send an `Idempotency-Key` to retry safely.
         */
        get: operations["getPropertyDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/property/detailowner": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Compatibility alias of /property/address (owner data included)
         * @description Requires `address` with `city`+`state` or with `zip` (alternative names `locality`, `countrySubd`, `postal1`). Addresses are matched after USPS Publication 28 normalisation (suffixes, directionals, ordinals, unit designators, case, punctuation, ZIP+4). An address without a unit returns every unit at it, paginated. Every alias returns the full record. Billing: 1 credit per property returned; errors cost 0. When credits run out mid-page, fewer records are returned, `truncated_by_credits` is true and `records_returned` is the number billed. Send an `Idempotency-Key` to retry safely.
         */
        get: operations["getPropertyDetailOwner"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/property/detailmortgage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Compatibility alias of /property/address (mortgage data included)
         * @description Requires `address` with `city`+`state` or with `zip` (alternative names `locality`, `countrySubd`, `postal1`). Addresses are matched after USPS Publication 28 normalisation (suffixes, directionals, ordinals, unit designators, case, punctuation, ZIP+4). An address without a unit returns every unit at it, paginated. Every alias returns the full record. Billing: 1 credit per property returned; errors cost 0. When credits run out mid-page, fewer records are returned, `truncated_by_credits` is true and `records_returned` is the number billed. Send an `Idempotency-Key` to retry safely.
         */
        get: operations["getPropertyDetailMortgage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/property/detailmortgageowner": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Compatibility alias of /property/address (mortgage and owner data included)
         * @description Requires `address` with `city`+`state` or with `zip` (alternative names `locality`, `countrySubd`, `postal1`). Addresses are matched after USPS Publication 28 normalisation (suffixes, directionals, ordinals, unit designators, case, punctuation, ZIP+4). An address without a unit returns every unit at it, paginated. Every alias returns the full record. Billing: 1 credit per property returned; errors cost 0. When credits run out mid-page, fewer records are returned, `truncated_by_credits` is true and `records_returned` is the number billed. Send an `Idempotency-Key` to retry safely.
         */
        get: operations["getPropertyDetailMortgageOwner"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sale/detail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Compatibility alias of /property/address (sale fields included)
         * @description Requires `address` with `city`+`state` or with `zip` (alternative names `locality`, `countrySubd`, `postal1`). Addresses are matched after USPS Publication 28 normalisation (suffixes, directionals, ordinals, unit designators, case, punctuation, ZIP+4). An address without a unit returns every unit at it, paginated. Every alias returns the full record. Billing: 1 credit per property returned; errors cost 0. When credits run out mid-page, fewer records are returned, `truncated_by_credits` is true and `records_returned` is the number billed. Send an `Idempotency-Key` to retry safely.
         */
        get: operations["getSaleDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/property/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Up to 100 address lookups in one call
         * @description A JSON body `{"requests": [{"id": "a1", "address": "...", "zip": "..."}, ...]}` of 1 to 100 entries, each taking the parameters of /property/address (strings; numbers are read as their digits) and your own `id`. One result per entry, in order, with its own status (0, or the 400/404 a single call would have answered), `match` and records. Billed as the single calls would be, 1 credit per record returned, under one transaction: when the credits run out within the batch, the entry where they ran out is truncated and every later entry is answered 402 with no record. The batch counts one call per 10 entries (rounded up; a full batch is 10), preview or not, for the rate limit, the daily quota and /usage. An `Idempotency-Key` covers the whole batch: a repeat is answered with what the first call paid for. `preview=true` and `max_credits` apply to the whole batch. An entry that cannot be read is a 400 in its result; a body that cannot be read is a 400 for the batch.
         */
        post: operations["getPropertiesInBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/property/owner": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Properties by owner name, or of one owner entity
         * @description `ownerId` (an owner entity, `owner.owner1.id` of a record or `id` of /owner/search) answers that owner's properties by property ID, paged alike (an ID merged into another owner answers as that one). Otherwise matches the last name of any owner of a record (owner1, owner2, and owner3 and owner4 where the roll names them); an owner without a personal last name (a company, trust, government, or a full name as imported) by any word of its name (`lastName=ACME` finds `ACME HOLDINGS LLC`). firstName (people only), city and state narrow. `status.total` counts at most 10,000 properties: 10,000 means that many or more (pages reach no deeper either; narrow with state or city). Billing: 1 credit per property returned; errors cost 0. When credits run out mid-page, fewer records are returned, `truncated_by_credits` is true and `records_returned` is the number billed. Send an `Idempotency-Key` to retry safely.
         */
        get: operations["getPropertyByOwner"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/owner/detail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One owner entity: names, mailing addresses, parcel count and values
         * @description An owner entity by ID (`owner.owner1.id` ... `owner.owner4.id` of a record, `id` of /owner/search): the names its records write, its type, mailing addresses, parcel count, total market and assessed value, states and counties, first and last acquisition (last-sale) date. An ID merged into another owner answers as that one (`owner.id` says which). Costs 1 credit; an unknown ID is a 404 (free). `preview=true` answers the cost without the owner.
         */
        get: operations["getOwnerDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/owner/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Owner entities by name, most parcels first
         * @description Owners (people and entities) whose name starts with `name` (at least 3 letters; a person is LAST FIRST; entity words are normalised: `L.L.C.` is LLC, a leading THE is dropped), each with its parcel count, most parcels first; `state` counts only parcels there. Paged like /property/owner; at most 10,000 owners are counted. Billing: 1 credit per owner returned; errors cost 0; `preview` and `max_credits` as on the property endpoints.
         */
        get: operations["searchOwners"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/property/parcel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Properties by Assessor Parcel Number
         * @description Matches the APN as given and without special characters against the county parcel ID and the tax parcel ID; state and county narrow. No page parameters: up to 100 matches are returned. Billing: 1 credit per property returned; errors cost 0. When credits run out mid-page, fewer records are returned, `truncated_by_credits` is true and `records_returned` is the number billed. Send an `Idempotency-Key` to retry safely.
         */
        get: operations["getPropertyByParcel"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/property/radius": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Properties within a radius of a point
         * @description The properties within `radius` miles (great-circle, at most 10) of `latitude`,`longitude`, nearest first (ties by property ID, so pages never overlap or skip); each record carries `location.distance`, miles from the centre (3 decimals). `proptype` narrows to property types. Paged like /property/owner; records without coordinates are never found by area. `status.total` counts at most 10,000 properties: 10,000 means that many or more, and the pages hold the nearest 10,000 (none deeper; narrow with a smaller radius or proptype). Billing: 1 credit per property returned; errors cost 0. When credits run out mid-page, fewer records are returned, `truncated_by_credits` is true and `records_returned` is the number billed. Send an `Idempotency-Key` to retry safely.
         */
        get: operations["getPropertiesInRadius"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/property/area": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Properties in a bounding box or a GeoJSON polygon
         * @description Exactly one of `bbox` (`minLon,minLat,maxLon,maxLat`) or `polygon` (a GeoJSON Polygon, URL-encoded; its edges straight in longitude/latitude as RFC 7946 says), at most 20 miles each way. URL-encoded, the request line must fit in 16 KB (else a 431): send the polygon as compact JSON (200 vertices at 6 decimals are 6 to 7 KB encoded; the same pretty-printed can be 25 KB). Ordered by distance from the box's centre (a polygon: its bounding box's centre), nearest first, ties by property ID; each record carries `location.distance` in miles from that centre. `proptype` narrows to property types. Paged like /property/owner. `status.total` counts at most 10,000 properties: 10,000 means that many or more, and the pages hold the 10,000 nearest the centre (none deeper; narrow the area or proptype). Billing: 1 credit per property returned; errors cost 0. When credits run out mid-page, fewer records are returned, `truncated_by_credits` is true and `records_returned` is the number billed. Send an `Idempotency-Key` to retry safely.
         */
        get: operations["getPropertiesInArea"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/sale/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Full sale history of one property
         * @description One record with `saleHistory[]`, newest first. Costs 1 credit. Billing: 1 credit per property returned; errors cost 0. When credits run out mid-page, fewer records are returned, `truncated_by_credits` is true and `records_returned` is the number billed. Send an `Idempotency-Key` to retry safely.
         */
        get: operations["getSaleHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/assessment/detail": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Assessment and tax history of one property
         * @description One record with `assessmentHistory[]`, newest tax year first. Costs 1 credit. Billing: 1 credit per property returned; errors cost 0. When credits run out mid-page, fewer records are returned, `truncated_by_credits` is true and `records_returned` is the number billed. Send an `Idempotency-Key` to retry safely.
         */
        get: operations["getAssessmentDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Changes to property records since a cursor
         * @description What imports changed, oldest first: one event per record changed, naming the parts that changed (`parts`) with the owner names and last sale before and after. Continue with `since=<status.cursor>` (with the same filters): a cursor never skips or repeats an event, also while imports run. Filters: `zip`; `county` with `state` (or `state` alone); `ownerId`; `ids`, a watch list of property IDs. `status.more` says the page was full. Events are kept 30 days: a cursor past that is a 400 `cursor_expired` (read the records you follow again, then continue from a new cursor: `since` absent starts at the oldest event kept). Billing: 1 credit per event returned; a page with no event costs nothing (it counts as a call). When credits run out mid-page, fewer events are returned, `truncated_by_credits` is true and the cursor continues after the last one returned. `preview` and `max_credits` as on the property endpoints; send an `Idempotency-Key` to retry safely.
         */
        get: operations["getChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/property/autocomplete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Address type-ahead suggestions
         * @description Not credit-metered (the balance is reported unchanged). No suggestion is 200 with an empty list. `status.total` is the number of suggestions that match, counted up to 100: 100 means that many or more (type more to narrow them); at most `limit` of them are returned. Feed a suggestion's `line1` and `postal1` to /property/detail for the full record.
         */
        get: operations["autocompleteAddress"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Credit balance, usage and account details
         * @description SPEC 4.7 lists 401 only; a disabled key is refused with 403 here as on every endpoint (SPEC 5). Outside the rate limit and the daily quota (never a 429), and not counted as a call: a client at its quota can still read its usage. Read from PostgreSQL: a charge shows up within about a second.
         */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account's webhooks, with their status
         * @description Each webhook with `status` (`active`, or `disabled` after repeated failed deliveries, with `disabledReason`) and its failures in a row. Secrets are never shown here. Free.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register an endpoint for change events
         * @description A JSON body `{"url": "https://...", "events": ["property.changed"], "filter": {...}}`; the filter is exactly one of `zip`; `county` and `state`; `ids` (1 to 1,000 property IDs); `ownerId`. Events: property.created, property.updated, property.removed, or `property.changed` for all three. The URL must be https (plain http is taken only on a development machine, and then only to a loopback address). An account may have 25 webhooks (a 409 past that). The answer holds the signing `secret`, shown this once: each delivery is signed with it (`webhook-id`, `webhook-timestamp`, `webhook-signature` headers, the Standard Webhooks scheme). Free: no credits are charged.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a webhook
         * @description No event is sent to it afterwards. Another account's webhook is a 404, like one that does not exist. Free.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A webhook's delivery attempts, newest first
         * @description Each attempt: the event, the attempt number, when, the HTTP status (or the error), the latency and the outcome. Paged by `pagesize` and `cursor` (`nextCursor` of the page before). Free.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a test event to a webhook
         * @description Queues one test event (`webhook.test`, whatever events the webhook takes), delivered, signed and retried like any other; its attempts appear under `/webhooks/{id}/deliveries`. A disabled webhook gets it once enabled again. No body. Free.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Enable a disabled webhook again
         * @description A webhook disabled after repeated failed deliveries takes events again: its failures in a row start over, and the events it was owed meanwhile are delivered, in order. An active one is answered as it is. No body. Free.
         */
        post: operations["enableWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace a webhook's signing secret
         * @description Answers the webhook with its new `secret`, shown this once. The secret it replaces keeps signing every delivery beside the new one for `overlap_seconds` (a day by default, at most a day; 0 ends it at once, for a secret that leaked): the `webhook-signature` header then holds both signatures, space-separated as Standard Webhooks writes them, so a receiver verifying with either secret accepts the delivery while it moves to the new one. One replaced secret at most: rotating again within the overlap drops the oldest at once. No body. Free.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Service status */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Pricing plans and credit packs */
        get: operations["getPlans"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        PropertyResponse: {
            property: components["schemas"]["PropertyRecord"][];
            status: components["schemas"]["Status"];
        };
        PropertyRecord: {
            identifier: {
                /**
                 * Format: int64
                 * @description The service's property ID; the `id` of /sale/history and /assessment/detail
                 * @example 6000000123
                 */
                Id: number;
                /**
                 * @description Assessor Parcel Number
                 * @example 015-0123-004-0000
                 */
                apn: string;
                /** @description APN as the county writes it */
                apnOrig: string;
                /**
                 * @description State + county FIPS code
                 * @example 06067
                 */
                fips: string;
                /**
                 * Format: int64
                 * @description The service's parcel ID
                 */
                parcelId: number;
            };
            address: {
                /** @example US */
                country: string;
                /**
                 * @description State, 2 letters
                 * @example CA
                 */
                countrySubd: string;
                /** @example 3526 HIGH ST */
                line1: string;
                /**
                 * @description Unit (e.g. `APT 4`); empty when the address has none
                 * @example
                 */
                line2: string;
                /**
                 * @description City
                 * @example SACRAMENTO
                 */
                locality: string;
                /** @example 3526 HIGH ST, SACRAMENTO, CA 95838 */
                oneLine: string;
                /**
                 * @description ZIP code
                 * @example 95838
                 */
                postal1: string;
                /**
                 * @description ZIP+4 add-on; empty when unknown
                 * @example 1234
                 */
                postal2: string;
            };
            location: {
                /** @description 11-digit census tract GEOID (state+county+tract) */
                censustract: string | null;
                county: string;
                latitude: number | null;
                longitude: number | null;
                /**
                 * @description Area search only (/property/radius, /property/area): miles from the centre searched, great-circle, rounded to 3 decimals
                 * @example 1.234
                 */
                distance?: number;
            };
            summary: {
                /**
                 * @description `Y` when the owner mailing address differs from the property address (street with its unit, both normalised, and ZIP5), `N` when it is the property address; null when no mailing address with a ZIP is on record (unknown is not owner-occupied)
                 * @enum {string|null}
                 */
                absenteeInd: "Y" | "N" | null;
                /**
                 * @description Property type: SFR, CONDOMINIUM, APARTMENT, COOPERATIVE, TOWNHOUSE/ROWHOUSE, DUPLEX, TRIPLEX, MOBILE HOME, VACANT LAND, COMMERCIAL, INDUSTRIAL, CONDOMINIUM PARKING, OTHER, UNKNOWN
                 * @example SFR
                 */
                proptype: string;
                /**
                 * @description `Y` for land without a building (`proptype` VACANT LAND), and for a generated record's unoccupied building; an imported record is `Y` only as vacant land (a county roll says nothing else of occupancy)
                 * @enum {string}
                 */
                vacantInd: "Y" | "N";
                yearbuilt: number | null;
            };
            lot: {
                /** @description Square feet */
                lotsize1: number | null;
                /** @description Acres */
                lotsize2: number | null;
                subdivision: string | null;
                /** @description `Y` when the lot has a pool (sample-payload field, kept for compatibility) */
                pooltype: string | null;
            };
            building: {
                size: {
                    /** @description Building area, square feet */
                    universalsize: number | null;
                };
                rooms: {
                    beds: number | null;
                    /** @description Bathrooms in all, a half bathroom counting 0.5 (2.5: two full, one half) */
                    bathstotal: number | null;
                    /** @description Half (partial) bathrooms, a count */
                    bathspartial: number | null;
                };
            };
            owner: {
                owner1: {
                    /**
                     * Format: int64
                     * @description The owner entity (GET /owner/detail?id=...): every mention of one owner carries its id, kept across re-imports; an owner merged into another later answers as that one. Null when the record names no owner here.
                     * @example 48213
                     */
                    id: number | null;
                    /** @description A person's first name; null for an entity */
                    firstName: string | null;
                    /** @description A person's last name; null for an entity (found by the words of fullName) */
                    lastName: string | null;
                    /** @description A person in reading order (FIRST MIDDLE LAST SUFFIX); an entity as written */
                    fullName: string | null;
                    /** @description Individual, Trustee, Corporation, Trust, Government, Estate, Religious, Association, Financial; a mapping's own `ownerType` column is stored as the file writes it */
                    type: string | null;
                };
                owner2: {
                    /**
                     * Format: int64
                     * @description The owner entity (GET /owner/detail?id=...): every mention of one owner carries its id, kept across re-imports; an owner merged into another later answers as that one. Null when the record names no owner here.
                     * @example 48213
                     */
                    id: number | null;
                    /** @description A person's first name; null for an entity */
                    firstName: string | null;
                    /** @description A person's last name; null for an entity (found by the words of fullName) */
                    lastName: string | null;
                    /** @description A person in reading order (FIRST MIDDLE LAST SUFFIX); an entity as written */
                    fullName: string | null;
                    /** @description Individual, Trustee, Corporation, Trust, Government, Estate, Religious, Association, Financial; a mapping's own `ownerType` column is stored as the file writes it */
                    type: string | null;
                } | null;
                /** @description A third owner, present only when the county's roll names one (as the incumbent's owner3); found by owner search as owner1 and owner2 are (its `id` an owner entity) */
                owner3?: {
                    /**
                     * Format: int64
                     * @description The owner entity (GET /owner/detail?id=...): every mention of one owner carries its id, kept across re-imports; an owner merged into another later answers as that one. Null when the record names no owner here.
                     * @example 48213
                     */
                    id: number | null;
                    /** @description A person's first name; null for an entity */
                    firstName: string | null;
                    /** @description A person's last name; null for an entity (found by the words of fullName) */
                    lastName: string | null;
                    /** @description A person in reading order (FIRST MIDDLE LAST SUFFIX); an entity as written */
                    fullName: string | null;
                    /** @description Individual, Trustee, Corporation, Trust, Government, Estate, Religious, Association, Financial; a mapping's own `ownerType` column is stored as the file writes it */
                    type: string | null;
                };
                /** @description A fourth owner, present only when the roll names one (as the incumbent's owner4); a fifth is not kept */
                owner4?: {
                    /**
                     * Format: int64
                     * @description The owner entity (GET /owner/detail?id=...): every mention of one owner carries its id, kept across re-imports; an owner merged into another later answers as that one. Null when the record names no owner here.
                     * @example 48213
                     */
                    id: number | null;
                    /** @description A person's first name; null for an entity */
                    firstName: string | null;
                    /** @description A person's last name; null for an entity (found by the words of fullName) */
                    lastName: string | null;
                    /** @description A person in reading order (FIRST MIDDLE LAST SUFFIX); an entity as written */
                    fullName: string | null;
                    /** @description Individual, Trustee, Corporation, Trust, Government, Estate, Religious, Association, Financial; a mapping's own `ownerType` column is stored as the file writes it */
                    type: string | null;
                };
                mailingAddress: {
                    line1: string | null;
                    locality: string | null;
                    countrySubd: string | null;
                    postal1: string | null;
                    /** @description The ZIP+4 add-on, when the county file gives it */
                    postal2?: string;
                };
            };
            assessment: {
                assessed: {
                    land: number | null;
                    improvements: number | null;
                    total: number | null;
                };
                market: {
                    total: number | null;
                };
                avm: {
                    value: number | null;
                    date: string | null;
                };
                /** @description Value (AVM, else market) minus the current mortgage amount; null when either is unknown (no mortgage on record is unknown, not 0) */
                equity: number | null;
                rental: {
                    estimate: number | null;
                    /** @enum {string|null} */
                    estimateSource: "property" | "area_median_acs_2024" | null;
                };
            };
            sale: {
                lastSale: {
                    /** Format: date */
                    date: string | null;
                    price: number | null;
                };
            };
            mortgage: {
                /**
                 * @description Loan amount as a decimal string (formal schema: string)
                 * @example 320000
                 */
                amount: string | null;
                /** Format: date */
                date: string | null;
                lender: {
                    companyname: string | null;
                };
            };
            /** @description Area-level census data for the property's tract */
            demographics: {
                medianAge: number | null;
                medianGrossRent: number | null;
                medianHomeValue: number | null;
                medianHouseholdIncome: number | null;
                /** @description Percentage 0-100 */
                ownerOccupiedRate: number | null;
                /** @description Percentage 0-100 */
                povertyRate: number | null;
                /**
                 * @description Census data vintage
                 * @example ACS 2019-2023 5-year
                 */
                source: string;
                totalPopulation: number | null;
                /** @description Percentage 0-100 */
                unemploymentRate: number | null;
                /** @description Percentage 0-100 */
                vacancyRate: number | null;
            } | null;
            vintage: {
                /** Format: date-time */
                lastModified: string | null;
                /**
                 * @description Present when the county file gave the parcel no ZIP: where `address.postal1` comes from. `owner-mailing`: the owner is mailed at the parcel's own line, in a ZIP of the county; `street-segment`: the ZIP the county's other parcels on the same street segment (same side, nearest numbers below and above) share; null: no evidence, `postal1` is empty. Absent: the ZIP is the county file's (or the record's source's).
                 * @enum {string|null}
                 */
                postal1Source?: "owner-mailing" | "street-segment" | null;
            };
        };
        Status: {
            /**
             * @description 0 = success
             * @enum {integer}
             */
            code: 0;
            /** @example SuccessWithResult */
            msg: string;
            /** @description Total matching records; may exceed pagesize */
            total: number;
            page: number;
            pagesize: number;
            /** Format: uuid */
            transactionID: string;
            /** @description Credit balance after the call */
            credits_remaining: number;
            /** @description Records returned (and billed) by this call */
            records_returned: number;
            /** @description True when credits ran out before the page was full */
            truncated_by_credits: boolean;
            /** @description With `preview=true` only: what the call would cost at this page and page size (the records on that page); nothing is charged */
            credits_required?: number;
            match?: components["schemas"]["AddressMatch"];
        };
        /** @description Address lookups only: how the address asked matched the stored one */
        AddressMatch: {
            /**
             * @description `exact`: the line as written is the stored line. `standardized`: the same line once spellings are standardised (Street/ST, West/W, 21/21ST). `type_inferred`: the street type was missing on one side and is the only type of that street in the ZIP or city. `corrected`: another part was read differently (a one-letter slip in the name, a post-directional given on one side only, a number or a route-lettered id after the street read as the unit, a letter after the house number's dash read as a directional, a letter written apart read as the house number's, a unit asked that the stored line holds: kept in the street's name after a street without a type or a route's number, or as the house number's letter). `building`: the unit asked is not a record of its own; the record of the whole building answers.
             * @enum {string}
             */
            type: "exact" | "standardized" | "type_inferred" | "corrected" | "building";
            input: components["schemas"]["AddressParts"];
            matched: components["schemas"]["AddressParts"] & unknown;
            /** @description The parts that differ between `input` and `matched` (empty for exact and standardized) */
            differed: ("number" | "predirectional" | "street" | "suffix" | "postdirectional" | "unit")[];
        };
        /** @description The address as the query was read */
        AddressParts: {
            /** @description House number ("123", "123A", "12-34") */
            number: string | null;
            /** @description Directional before the name ("N") */
            predirectional: string | null;
            /** @description Street name, standardised ("21ST", "MARTIN LUTHER KING JR") */
            street: string;
            /** @description Street type, USPS abbreviation ("ST", "AVE") */
            suffix: string | null;
            /** @description Directional after the street type ("E") */
            postdirectional: string | null;
            /** @description Unit id without its designator ("2C"); "" for a designator without its number; null when no unit is named (in `matched`: the answer holds every unit at the line, or the building's own record) */
            unit: string | null;
        };
        ErrorResponse: {
            /** @description Always empty */
            property: Record<string, never>[];
            status: {
                /**
                 * @description The HTTP status code
                 * @example 400
                 */
                code: number;
                reason: components["schemas"]["ErrorReason"];
                /** @example Invalid parameter 'pagesize': must be at most 100 */
                msg: string;
                total: number;
                /**
                 * Format: uuid
                 * @description Same as the X-Request-Id header
                 */
                transactionID?: string;
            };
        };
        /**
         * @description Why the request was refused, for code to act on (the message is for people). Each reason has one HTTP status: `invalid_parameter` 400, `missing_parameter` 400, `unknown_parameter` 400, `invalid_header` 400, `invalid_body` 400, `malformed_request` 400, `idempotency_key_reused` 400, `repeat_unavailable` 400, `cursor_expired` 400, `already_exists` 400, `unauthorized` 401, `insufficient_credits` 402, `over_max_credits` 402, `forbidden` 403, `not_found` 404, `page_out_of_range` 404, `no_such_endpoint` 404, `method_not_allowed` 405, `limit_reached` 409, `request_timeout` 408, `payload_too_large` 413, `request_line_too_long` 431, `rate_limited` 429, `quota_exceeded` 429, `internal` 500, `unavailable` 503
         * @example insufficient_credits
         * @enum {string}
         */
        ErrorReason: "invalid_parameter" | "missing_parameter" | "unknown_parameter" | "invalid_header" | "invalid_body" | "malformed_request" | "idempotency_key_reused" | "repeat_unavailable" | "cursor_expired" | "already_exists" | "unauthorized" | "insufficient_credits" | "over_max_credits" | "forbidden" | "not_found" | "page_out_of_range" | "no_such_endpoint" | "method_not_allowed" | "limit_reached" | "request_timeout" | "payload_too_large" | "request_line_too_long" | "rate_limited" | "quota_exceeded" | "internal" | "unavailable";
        BatchResponse: {
            /** @description One result per entry, in the order of `requests` */
            results: components["schemas"]["BatchResult"][];
            status: {
                /**
                 * @description 0 = success
                 * @enum {integer}
                 */
                code: 0;
                /** @example SuccessWithResult */
                msg: string;
                /** Format: uuid */
                transactionID: string;
                credits_remaining: number;
                /** @description Records returned (and billed) by the whole batch */
                records_returned: number;
                /** @description True when the credits ran out within the batch */
                truncated_by_credits: boolean;
                /** @description With `preview=true` only: what the whole batch would cost; nothing is charged */
                credits_required?: number;
            };
        };
        BatchResult: {
            /** @description The entry's `id`, or null when it gave none */
            id: string | null;
            status: {
                /** @description 0 = records found; else the HTTP status a single call would have had: 400 (the entry is invalid), 404 (nothing found), 402 (the credits ran out before this entry) */
                code: number;
                msg: string;
                total: number;
                page?: number;
                pagesize?: number;
                /** @description Records returned (and billed) for this entry */
                records_returned: number;
                truncated_by_credits: boolean;
                /** @description With `preview=true`: what this entry would cost */
                credits_required?: number;
            };
            /** @description How the address matched, as `status.match` of /property/address (null when nothing did) */
            match: {
                /**
                 * @description `exact`: the line as written is the stored line. `standardized`: the same line once spellings are standardised (Street/ST, West/W, 21/21ST). `type_inferred`: the street type was missing on one side and is the only type of that street in the ZIP or city. `corrected`: another part was read differently (a one-letter slip in the name, a post-directional given on one side only, a number or a route-lettered id after the street read as the unit, a letter after the house number's dash read as a directional, a letter written apart read as the house number's, a unit asked that the stored line holds: kept in the street's name after a street without a type or a route's number, or as the house number's letter). `building`: the unit asked is not a record of its own; the record of the whole building answers.
                 * @enum {string}
                 */
                type: "exact" | "standardized" | "type_inferred" | "corrected" | "building";
                input: components["schemas"]["AddressParts"];
                matched: components["schemas"]["AddressParts"] & unknown;
                /** @description The parts that differ between `input` and `matched` (empty for exact and standardized) */
                differed: ("number" | "predirectional" | "street" | "suffix" | "postdirectional" | "unit")[];
            } | null;
            property: components["schemas"]["PropertyRecord"][];
        };
        BatchRequest: {
            /** @description 1 to 100 address lookups, answered in order */
            requests: components["schemas"]["BatchEntry"][];
        };
        BatchEntry: {
            /**
             * @description Your id for this entry, echoed in its result
             * @example a1
             */
            id?: string;
            /** @description Street address, e.g. `123 N Main St Apt 4` (a unit narrows to that unit) */
            address?: string;
            /** @description City; pair with state */
            city?: string;
            /** @description Alternative name of `city` */
            locality?: string;
            /**
             * @description Two-letter state code
             * @example CA
             */
            state?: string;
            /**
             * @description Alternative name of `state`
             * @example CA
             */
            countrySubd?: string;
            /**
             * @description 5-digit ZIP (ZIP+4 accepted; the add-on is ignored)
             * @example 95838
             */
            zip?: string;
            /**
             * @description Alternative name of `zip`
             * @example 95838
             */
            postal1?: string;
            /** @description Street number, when `address` holds the street only */
            number?: string;
            /**
             * @description Page number, from 1. page x pagesize may be at most 10,000 (a 400 beyond): narrow the search with state or city instead of paging deeper.
             * @default 1
             */
            page?: number;
            /**
             * @description Records per page
             * @default 25
             */
            pagesize?: number;
        };
        OwnerDetailResponse: {
            owner: components["schemas"]["OwnerDetail"];
            status: components["schemas"]["Status"];
        };
        /** @description null in a preview (nothing charged, nothing shown) */
        OwnerDetail: {
            /**
             * Format: int64
             * @description The owner ID (an ID merged into this owner answers as it)
             */
            id: number;
            /**
             * @description The name most of its mentions write
             * @example ACME HOLDINGS LLC
             */
            name: string;
            /** @description Every way its records write its name */
            names: string[];
            /** @description Owner type (owner.owner1.type), as most mentions give it */
            type: string | null;
            /** @description Its mailing addresses as records write them */
            mailingAddresses: string[];
            /** @description Properties it owns (in any owner place, owner1 to owner4) */
            parcelCount: number;
            /** @description Sum of assessment.market.total over its properties */
            marketTotal: number;
            /** @description Sum of assessment.assessed.total over its properties */
            assessedTotal: number;
            states: string[];
            /**
             * @description "County, ST"
             * @example [
             *       "Philadelphia, PA"
             *     ]
             */
            counties: string[];
            /**
             * Format: date
             * @description Earliest last-sale date
             */
            firstAcquired: string | null;
            /**
             * Format: date
             * @description Latest last-sale date
             */
            lastAcquired: string | null;
        } | null;
        OwnerSearchResponse: {
            owners: components["schemas"]["OwnerSummary"][];
            status: components["schemas"]["Status"];
        };
        OwnerSummary: {
            /** Format: int64 */
            id: number;
            name: string;
            type: string | null;
            parcelCount: number;
            states: string[];
        };
        SaleHistoryResponse: {
            property: components["schemas"]["SaleHistoryRecord"][];
            status: components["schemas"]["Status"];
        };
        SaleHistoryRecord: components["schemas"]["PropertyRecord"] & {
            /** @description Newest first */
            saleHistory: components["schemas"]["SaleHistoryEntry"][];
        };
        SaleHistoryEntry: {
            /** Format: date */
            date: string;
            price: number | null;
            /**
             * @description The deed's type; null when the source names none (the county rolls imported here name none).
             * @example GRANT DEED
             */
            documentType: string | null;
            /**
             * Format: date
             * @description When the deed was recorded; null when the source gives no recording date.
             */
            recordingDate: string | null;
            buyerName: string | null;
            sellerName: string | null;
            /**
             * @description The deed's reference in the county's land records, as the source writes it: a book and page or an instrument number; null when the source gives none. Two deeds of one day at one price are two entries when their references differ. Absent only from a history stored before this field existed, until its county file is imported again.
             * @example 793:231
             */
            documentNumber?: string | null;
        };
        AssessmentHistoryResponse: {
            property: components["schemas"]["AssessmentHistoryRecord"][];
            status: components["schemas"]["Status"];
        };
        AssessmentHistoryRecord: components["schemas"]["PropertyRecord"] & {
            /** @description Newest tax year first */
            assessmentHistory: components["schemas"]["AssessmentHistoryEntry"][];
        };
        AssessmentHistoryEntry: {
            /** @description The tax year the values are for; null when the source names none (a county roll without a tax year column or constant in its mapping). */
            taxYear: number | null;
            assessed: {
                land: number | null;
                improvements: number | null;
                total: number | null;
            };
            market: {
                total: number | null;
            };
            tax: {
                amount: number | null;
            };
        };
        ChangesResponse: {
            changes: components["schemas"]["ChangeEvent"][];
            status: components["schemas"]["ChangesStatus"];
        };
        ChangeEvent: {
            /**
             * @description The event's ID (its place in the feed)
             * @example 48213
             */
            id: string;
            /**
             * Format: int64
             * @description The record changed (identifier.Id)
             */
            propertyId: number;
            /** @description Which parts of the record changed */
            parts: ("created" | "removed" | "owner" | "sale" | "assessment" | "building" | "lot" | "address" | "location" | "identifier" | "mortgage" | "other")[];
            /**
             * Format: date-time
             * @description When the import committed the change
             */
            changedAt: string;
            /** @description The record's ZIP ('' when its county file gives none) */
            zip: string;
            state: string;
            /** @description The county name, normalised (`PHILADELPHIA`) */
            county: string;
            /** @description The county FIPS code */
            fips: string;
            /** @description With an owner change (or a created record): the owner names before and after */
            owner?: {
                old: string[];
                new: string[];
            };
            /** @description With a sale change (or a created record): the last sale before and after */
            sale?: {
                old: {
                    /** Format: date */
                    date: string;
                    price: number | null;
                } | null;
                new: {
                    /** Format: date */
                    date: string;
                    price: number | null;
                } | null;
            };
            /** @description With an assessment change (or a created record): the current assessment before and after */
            assessment?: {
                old: {
                    taxYear: number | null;
                    total: number | null;
                    marketTotal: number | null;
                } | null;
                new: {
                    taxYear: number | null;
                    total: number | null;
                    marketTotal: number | null;
                } | null;
            };
        };
        ChangesStatus: components["schemas"]["Status"] & {
            /** @description Where the next call continues (`since`): after the last event returned (and paid for), or, when the page was not full, after every event committed when it was read. Bound to the filters it was read with. */
            cursor: string;
            /** @description The page was full (or cut short by credits): more events may follow at once */
            more: boolean;
        };
        SuggestionResponse: {
            property: components["schemas"]["Suggestion"][];
            status: components["schemas"]["Status"];
        };
        Suggestion: {
            identifier: {
                /** Format: int64 */
                Id: number;
            };
            address: {
                /** @example 3526 HIGH ST */
                line1: string;
                /**
                 * @description Unit (e.g. `APT 4`); empty when the address has none
                 * @example
                 */
                line2: string;
                /**
                 * @description City
                 * @example SACRAMENTO
                 */
                locality: string;
                /**
                 * @description State, 2 letters
                 * @example CA
                 */
                countrySubd: string;
                /**
                 * @description ZIP code
                 * @example 95838
                 */
                postal1: string;
                /** @example 3526 HIGH ST, SACRAMENTO, CA 95838 */
                oneLine: string;
            };
        };
        UsageResponse: {
            account: {
                email: string;
                name: string;
                /** @enum {string} */
                tier: "free" | "basic" | "starter" | "growth" | "pro" | "scale" | "enterprise";
            };
            calls: {
                today: number;
                total: number;
                /** Format: date-time */
                last_used: string | null;
            };
            credits: {
                balance: number;
                purchased: number;
                used: number;
                /** Format: date-time */
                expires: string | null;
            };
            daily_usage: {
                /** Format: date */
                day: string;
                calls: number;
                credits_used: number;
            }[];
            /** @description The account's webhooks (GET /webhooks lists them) */
            webhooks: {
                /** @description Webhooks events are sent to */
                active: number;
                /** @description Webhooks disabled after repeated failed deliveries, with why: no events are sent to them until they are enabled again (POST /webhooks/{id}/enable) */
                disabled: {
                    id: string;
                    url: string;
                    reason: string | null;
                    /** Format: date-time */
                    disabledAt: string;
                }[];
            };
        };
        WebhookListResponse: {
            /** @description The account's webhooks, oldest first */
            webhooks: components["schemas"]["Webhook"][];
            /** @description The most webhooks the account may have */
            limit: number;
        };
        Webhook: {
            /** @example wh_5f0c3a9e1b7d2c4e6a8f0b1d */
            id: string;
            url: string;
            events: ("property.created" | "property.updated" | "property.removed")[];
            filter: components["schemas"]["WebhookFilter"];
            /**
             * @description `disabled` after repeated failed deliveries (see `disabledReason`); no events are sent to it
             * @enum {string}
             */
            status: "active" | "disabled";
            /** @description Why it was disabled; null while active */
            disabledReason: string | null;
            /** Format: date-time */
            disabledAt: string | null;
            /** @description Failed attempts since the last delivered one (0 after a success) */
            consecutiveFailures: number;
            /**
             * Format: date-time
             * @description The last delivery it acknowledged
             */
            lastDeliveredAt: string | null;
            /** @description Events owed to it now: queued, being retried, or held while it is disabled */
            pendingEvents: number;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description After a secret rotation: until when the replaced secret still signs each delivery beside the new one; null when only the current secret signs
             */
            previousSecretExpiresAt: string | null;
        };
        /** @description Exactly one of: `zip`; `county` and `state` (both); `ids`; `ownerId`. Any other field is refused. */
        WebhookFilter: {
            /**
             * @description Properties in this 5-digit ZIP
             * @example 95838
             */
            zip?: string;
            /**
             * @description Properties in this county, by name or 5-digit FIPS code (with `state`)
             * @example Sacramento
             */
            county?: string;
            /**
             * @description The county's state, two letters (with `county`)
             * @example CA
             */
            state?: string;
            /** @description These properties (`identifier.Id`), 1 to 1,000 */
            ids?: number[];
            /**
             * Format: int64
             * @description One owner entity's properties (`owner.owner1.id` of a record)
             * @example 48213
             */
            ownerId?: number;
        };
        CreateWebhookResponse: {
            webhook: components["schemas"]["CreatedWebhook"];
        };
        CreatedWebhook: components["schemas"]["Webhook"] & {
            /**
             * @description The signing secret (`whsec_` and base64), shown this once: keep it to verify the `webhook-signature` header of each delivery (the Standard Webhooks scheme). No later answer shows it.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
        CreateWebhookRequest: {
            /**
             * @description Where events are POSTed: an https URL (http only on a development machine, to a loopback address)
             * @example https://hooks.example.com/property-records
             */
            url: string;
            /**
             * @description The events to send, each once; `property.changed` stands for all three
             * @example [
             *       "property.changed"
             *     ]
             */
            events: ("property.created" | "property.updated" | "property.removed" | "property.changed")[];
            filter: components["schemas"]["WebhookFilter"];
        };
        DeliveriesResponse: {
            /** @description Attempts, newest first */
            deliveries: components["schemas"]["DeliveryAttempt"][];
            /** @description Pass as `cursor` for older attempts; null on the last page (a full page may be followed by an empty one) */
            nextCursor: string | null;
        };
        DeliveryAttempt: {
            /** @description The event delivered (its `webhook-id` header) */
            eventId: string;
            /**
             * @description Its type: a property event, or `webhook.test`
             * @example property.updated
             */
            event: string;
            /** @description 1 for the first try, then each retry */
            attempt: number;
            /**
             * Format: date-time
             * @description When the attempt was made
             */
            at: string;
            /** @description The endpoint's HTTP status; null when none came */
            status: number | null;
            /** @description Why it failed, in words (a time-out, a refused connection ...); null when delivered */
            error: string | null;
            /** @description Milliseconds until the answer or the failure */
            latencyMs: number;
            /**
             * @description `delivered`: a 2xx came; `failed`: retried at `nextAttemptAt`; `dead_letter`: the last attempt failed, the event is given up for this endpoint
             * @enum {string}
             */
            outcome: "delivered" | "failed" | "dead_letter";
            /**
             * Format: date-time
             * @description When a failed attempt is tried again
             */
            nextAttemptAt: string | null;
        };
        WebhookTestResponse: {
            /** @description The test event's id: its attempts appear under /deliveries */
            eventId: string;
        };
        WebhookResponse: {
            webhook: components["schemas"]["Webhook"];
        };
        RotateWebhookSecretResponse: {
            webhook: components["schemas"]["CreatedWebhook"];
        };
        HealthResponse: {
            /**
             * @description `degraded` when the database cannot be reached
             * @enum {string}
             */
            status: "ok" | "degraded";
            /** @enum {string} */
            db: "connected" | "disconnected";
            records: number;
            /** @example 2.0.0 */
            version: string;
        };
        PlansResponse: {
            plans: components["schemas"]["Plan"][];
            marketplace_plans: components["schemas"]["Plan"][];
            /** Format: uri */
            purchase_url: string;
        };
        Plan: {
            plan: string;
            name: string;
            /** @description Records per period; null for a custom plan (`custom: true`), whose volume is agreed with sales */
            records: number | null;
            price: string;
            per_record: string;
            valid_days: number;
            /** @description True for a plan agreed with sales (Enterprise): `records` is null, `price` and `per_record` are words, not amounts */
            custom: boolean;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getPropertyByAddress: {
        parameters: {
            query?: {
                /** @description Street address, e.g. `123 N Main St Apt 4` (a unit narrows to that unit) */
                address?: string;
                /** @description City; pair with state */
                city?: string;
                /** @description Alternative name of `city` */
                locality?: string;
                /** @description Two-letter state code */
                state?: string;
                /** @description Alternative name of `state` */
                countrySubd?: string;
                /** @description 5-digit ZIP (ZIP+4 accepted; the add-on is ignored) */
                zip?: string;
                /** @description Alternative name of `zip` */
                postal1?: string;
                /** @description Street number, when `address` holds the street only */
                number?: string;
                /** @description Page number, from 1. page x pagesize may be at most 10,000 (a 400 beyond): narrow the search with state or city instead of paging deeper. */
                page?: number;
                /** @description Records per page */
                pagesize?: number;
                /** @description A free preview: answers `status.total` and `status.credits_required` (what this call would cost at this page and page size) with an empty `property`; charges nothing; counts as a call and is rate-limited like one. */
                preview?: boolean;
                /** @description The most this call may cost: a call whose page holds more records than this is refused with a 402 that names its cost, and nothing is charged. */
                max_credits?: number;
            };
            header?: {
                /** @description Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was (same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that timed out may be charged again. */
                "Idempotency-Key"?: string;
                /** @description The `ETag` of an answer you received to this same request (or several, comma-separated; a weak `W/"..."` form matches too). While the records it returned are unchanged, the answer is a **304 Not Modified**: no body, the same `ETag`, **0 credits**; it still counts as a call (rate limit, daily quota, `/usage`). Otherwise the usual answer, charged as usual. A tag is valid only for the account and the request it was answered to. `*` is a 400 (it would tell for free whether records exist); `preview=true` ignores this header. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matching property records */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PropertyResponse"];
                };
            };
            /** @description Not Modified: `If-None-Match` held this request's current `ETag`, so the records it stands for are unchanged. No body (use the answer you hold). 0 credits; it counts as a call (rate limit, daily quota, `/usage`) like any other. */
            304: {
                headers: {
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description This call's id (a keyed request's: its transaction's) */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No credits remaining, or every credit grant has expired. 0 credits. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No properties found. 0 credits. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getPropertyDetail: {
        parameters: {
            query?: {
                /** @description Street address, e.g. `123 N Main St Apt 4` (a unit narrows to that unit) */
                address?: string;
                /** @description City; pair with state */
                city?: string;
                /** @description Alternative name of `city` */
                locality?: string;
                /** @description Two-letter state code */
                state?: string;
                /** @description Alternative name of `state` */
                countrySubd?: string;
                /** @description 5-digit ZIP (ZIP+4 accepted; the add-on is ignored) */
                zip?: string;
                /** @description Alternative name of `zip` */
                postal1?: string;
                /** @description Street number, when `address` holds the street only */
                number?: string;
                /** @description Page number, from 1. page x pagesize may be at most 10,000 (a 400 beyond): narrow the search with state or city instead of paging deeper. */
                page?: number;
                /** @description Records per page */
                pagesize?: number;
                /** @description A free preview: answers `status.total` and `status.credits_required` (what this call would cost at this page and page size) with an empty `property`; charges nothing; counts as a call and is rate-limited like one. */
                preview?: boolean;
                /** @description The most this call may cost: a call whose page holds more records than this is refused with a 402 that names its cost, and nothing is charged. */
                max_credits?: number;
            };
            header?: {
                /** @description Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was (same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that timed out may be charged again. */
                "Idempotency-Key"?: string;
                /** @description The `ETag` of an answer you received to this same request (or several, comma-separated; a weak `W/"..."` form matches too). While the records it returned are unchanged, the answer is a **304 Not Modified**: no body, the same `ETag`, **0 credits**; it still counts as a call (rate limit, daily quota, `/usage`). Otherwise the usual answer, charged as usual. A tag is valid only for the account and the request it was answered to. `*` is a 400 (it would tell for free whether records exist); `preview=true` ignores this header. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matching property records */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PropertyResponse"];
                };
            };
            /** @description Not Modified: `If-None-Match` held this request's current `ETag`, so the records it stands for are unchanged. No body (use the answer you hold). 0 credits; it counts as a call (rate limit, daily quota, `/usage`) like any other. */
            304: {
                headers: {
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description This call's id (a keyed request's: its transaction's) */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No credits remaining, or every credit grant has expired. 0 credits. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No properties found. 0 credits. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getPropertyDetailOwner: {
        parameters: {
            query?: {
                /** @description Street address, e.g. `123 N Main St Apt 4` (a unit narrows to that unit) */
                address?: string;
                /** @description City; pair with state */
                city?: string;
                /** @description Alternative name of `city` */
                locality?: string;
                /** @description Two-letter state code */
                state?: string;
                /** @description Alternative name of `state` */
                countrySubd?: string;
                /** @description 5-digit ZIP (ZIP+4 accepted; the add-on is ignored) */
                zip?: string;
                /** @description Alternative name of `zip` */
                postal1?: string;
                /** @description Street number, when `address` holds the street only */
                number?: string;
                /** @description Page number, from 1. page x pagesize may be at most 10,000 (a 400 beyond): narrow the search with state or city instead of paging deeper. */
                page?: number;
                /** @description Records per page */
                pagesize?: number;
                /** @description A free preview: answers `status.total` and `status.credits_required` (what this call would cost at this page and page size) with an empty `property`; charges nothing; counts as a call and is rate-limited like one. */
                preview?: boolean;
                /** @description The most this call may cost: a call whose page holds more records than this is refused with a 402 that names its cost, and nothing is charged. */
                max_credits?: number;
            };
            header?: {
                /** @description Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was (same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that timed out may be charged again. */
                "Idempotency-Key"?: string;
                /** @description The `ETag` of an answer you received to this same request (or several, comma-separated; a weak `W/"..."` form matches too). While the records it returned are unchanged, the answer is a **304 Not Modified**: no body, the same `ETag`, **0 credits**; it still counts as a call (rate limit, daily quota, `/usage`). Otherwise the usual answer, charged as usual. A tag is valid only for the account and the request it was answered to. `*` is a 400 (it would tell for free whether records exist); `preview=true` ignores this header. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matching property records */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PropertyResponse"];
                };
            };
            /** @description Not Modified: `If-None-Match` held this request's current `ETag`, so the records it stands for are unchanged. No body (use the answer you hold). 0 credits; it counts as a call (rate limit, daily quota, `/usage`) like any other. */
            304: {
                headers: {
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description This call's id (a keyed request's: its transaction's) */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No credits remaining, or every credit grant has expired. 0 credits. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No properties found. 0 credits. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getPropertyDetailMortgage: {
        parameters: {
            query?: {
                /** @description Street address, e.g. `123 N Main St Apt 4` (a unit narrows to that unit) */
                address?: string;
                /** @description City; pair with state */
                city?: string;
                /** @description Alternative name of `city` */
                locality?: string;
                /** @description Two-letter state code */
                state?: string;
                /** @description Alternative name of `state` */
                countrySubd?: string;
                /** @description 5-digit ZIP (ZIP+4 accepted; the add-on is ignored) */
                zip?: string;
                /** @description Alternative name of `zip` */
                postal1?: string;
                /** @description Street number, when `address` holds the street only */
                number?: string;
                /** @description Page number, from 1. page x pagesize may be at most 10,000 (a 400 beyond): narrow the search with state or city instead of paging deeper. */
                page?: number;
                /** @description Records per page */
                pagesize?: number;
                /** @description A free preview: answers `status.total` and `status.credits_required` (what this call would cost at this page and page size) with an empty `property`; charges nothing; counts as a call and is rate-limited like one. */
                preview?: boolean;
                /** @description The most this call may cost: a call whose page holds more records than this is refused with a 402 that names its cost, and nothing is charged. */
                max_credits?: number;
            };
            header?: {
                /** @description Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was (same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that timed out may be charged again. */
                "Idempotency-Key"?: string;
                /** @description The `ETag` of an answer you received to this same request (or several, comma-separated; a weak `W/"..."` form matches too). While the records it returned are unchanged, the answer is a **304 Not Modified**: no body, the same `ETag`, **0 credits**; it still counts as a call (rate limit, daily quota, `/usage`). Otherwise the usual answer, charged as usual. A tag is valid only for the account and the request it was answered to. `*` is a 400 (it would tell for free whether records exist); `preview=true` ignores this header. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matching property records */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PropertyResponse"];
                };
            };
            /** @description Not Modified: `If-None-Match` held this request's current `ETag`, so the records it stands for are unchanged. No body (use the answer you hold). 0 credits; it counts as a call (rate limit, daily quota, `/usage`) like any other. */
            304: {
                headers: {
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description This call's id (a keyed request's: its transaction's) */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No credits remaining, or every credit grant has expired. 0 credits. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No properties found. 0 credits. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getPropertyDetailMortgageOwner: {
        parameters: {
            query?: {
                /** @description Street address, e.g. `123 N Main St Apt 4` (a unit narrows to that unit) */
                address?: string;
                /** @description City; pair with state */
                city?: string;
                /** @description Alternative name of `city` */
                locality?: string;
                /** @description Two-letter state code */
                state?: string;
                /** @description Alternative name of `state` */
                countrySubd?: string;
                /** @description 5-digit ZIP (ZIP+4 accepted; the add-on is ignored) */
                zip?: string;
                /** @description Alternative name of `zip` */
                postal1?: string;
                /** @description Street number, when `address` holds the street only */
                number?: string;
                /** @description Page number, from 1. page x pagesize may be at most 10,000 (a 400 beyond): narrow the search with state or city instead of paging deeper. */
                page?: number;
                /** @description Records per page */
                pagesize?: number;
                /** @description A free preview: answers `status.total` and `status.credits_required` (what this call would cost at this page and page size) with an empty `property`; charges nothing; counts as a call and is rate-limited like one. */
                preview?: boolean;
                /** @description The most this call may cost: a call whose page holds more records than this is refused with a 402 that names its cost, and nothing is charged. */
                max_credits?: number;
            };
            header?: {
                /** @description Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was (same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that timed out may be charged again. */
                "Idempotency-Key"?: string;
                /** @description The `ETag` of an answer you received to this same request (or several, comma-separated; a weak `W/"..."` form matches too). While the records it returned are unchanged, the answer is a **304 Not Modified**: no body, the same `ETag`, **0 credits**; it still counts as a call (rate limit, daily quota, `/usage`). Otherwise the usual answer, charged as usual. A tag is valid only for the account and the request it was answered to. `*` is a 400 (it would tell for free whether records exist); `preview=true` ignores this header. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matching property records */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PropertyResponse"];
                };
            };
            /** @description Not Modified: `If-None-Match` held this request's current `ETag`, so the records it stands for are unchanged. No body (use the answer you hold). 0 credits; it counts as a call (rate limit, daily quota, `/usage`) like any other. */
            304: {
                headers: {
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description This call's id (a keyed request's: its transaction's) */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No credits remaining, or every credit grant has expired. 0 credits. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No properties found. 0 credits. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getSaleDetail: {
        parameters: {
            query?: {
                /** @description Street address, e.g. `123 N Main St Apt 4` (a unit narrows to that unit) */
                address?: string;
                /** @description City; pair with state */
                city?: string;
                /** @description Alternative name of `city` */
                locality?: string;
                /** @description Two-letter state code */
                state?: string;
                /** @description Alternative name of `state` */
                countrySubd?: string;
                /** @description 5-digit ZIP (ZIP+4 accepted; the add-on is ignored) */
                zip?: string;
                /** @description Alternative name of `zip` */
                postal1?: string;
                /** @description Street number, when `address` holds the street only */
                number?: string;
                /** @description Page number, from 1. page x pagesize may be at most 10,000 (a 400 beyond): narrow the search with state or city instead of paging deeper. */
                page?: number;
                /** @description Records per page */
                pagesize?: number;
                /** @description A free preview: answers `status.total` and `status.credits_required` (what this call would cost at this page and page size) with an empty `property`; charges nothing; counts as a call and is rate-limited like one. */
                preview?: boolean;
                /** @description The most this call may cost: a call whose page holds more records than this is refused with a 402 that names its cost, and nothing is charged. */
                max_credits?: number;
            };
            header?: {
                /** @description Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was (same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that timed out may be charged again. */
                "Idempotency-Key"?: string;
                /** @description The `ETag` of an answer you received to this same request (or several, comma-separated; a weak `W/"..."` form matches too). While the records it returned are unchanged, the answer is a **304 Not Modified**: no body, the same `ETag`, **0 credits**; it still counts as a call (rate limit, daily quota, `/usage`). Otherwise the usual answer, charged as usual. A tag is valid only for the account and the request it was answered to. `*` is a 400 (it would tell for free whether records exist); `preview=true` ignores this header. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Matching property records */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PropertyResponse"];
                };
            };
            /** @description Not Modified: `If-None-Match` held this request's current `ETag`, so the records it stands for are unchanged. No body (use the answer you hold). 0 credits; it counts as a call (rate limit, daily quota, `/usage`) like any other. */
            304: {
                headers: {
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description This call's id (a keyed request's: its transaction's) */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No credits remaining, or every credit grant has expired. 0 credits. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No properties found. 0 credits. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getPropertiesInBatch: {
        parameters: {
            query?: {
                /** @description A free preview: answers `status.total` and `status.credits_required` (what this call would cost at this page and page size) with an empty `property`; charges nothing; counts as a call and is rate-limited like one. */
                preview?: boolean;
                /** @description The most this call may cost: a call whose page holds more records than this is refused with a 402 that names its cost, and nothing is charged. */
                max_credits?: number;
            };
            header?: {
                /** @description Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was (same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that timed out may be charged again. */
                "Idempotency-Key"?: string;
                /** @description The `ETag` of an answer you received to this same request (or several, comma-separated; a weak `W/"..."` form matches too). While the records it returned are unchanged, the answer is a **304 Not Modified**: no body, the same `ETag`, **0 credits**; it still counts as a call (rate limit, daily quota, `/usage`). Otherwise the usual answer, charged as usual. A tag is valid only for the account and the request it was answered to. `*` is a 400 (it would tell for free whether records exist); `preview=true` ignores this header. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchRequest"];
            };
        };
        responses: {
            /** @description One result per entry, in order */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchResponse"];
                };
            };
            /** @description Not Modified: `If-None-Match` held this request's current `ETag`, so the records it stands for are unchanged. No body (use the answer you hold). 0 credits; it counts as a call (rate limit, daily quota, `/usage`) like any other. */
            304: {
                headers: {
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description This call's id (a keyed request's: its transaction's) */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No credits remaining, or every credit grant has expired. 0 credits. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is larger than the gateway takes (the batch: 256 KB). 0 credits. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getPropertyByOwner: {
        parameters: {
            query?: {
                /** @description Owner last name; matches primary and secondary owners (and a third and fourth where the record has them). Required unless `ownerId` is given */
                lastName?: string;
                /** @description An owner entity (`owner.owner1.id` of a record): its parcels, by property ID. Instead of `lastName`; an id merged into another answers as that one */
                ownerId?: string;
                /** @description Owner first name */
                firstName?: string;
                /** @description Two-letter state code */
                state?: string;
                /** @description City */
                city?: string;
                /** @description Page number, from 1. page x pagesize may be at most 10,000 (a 400 beyond): narrow the search with state or city instead of paging deeper. */
                page?: number;
                /** @description Records per page */
                pagesize?: number;
                /** @description A free preview: answers `status.total` and `status.credits_required` (what this call would cost at this page and page size) with an empty `property`; charges nothing; counts as a call and is rate-limited like one. */
                preview?: boolean;
                /** @description The most this call may cost: a call whose page holds more records than this is refused with a 402 that names its cost, and nothing is charged. */
                max_credits?: number;
            };
            header?: {
                /** @description Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was (same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that timed out may be charged again. */
                "Idempotency-Key"?: string;
                /** @description The `ETag` of an answer you received to this same request (or several, comma-separated; a weak `W/"..."` form matches too). While the records it returned are unchanged, the answer is a **304 Not Modified**: no body, the same `ETag`, **0 credits**; it still counts as a call (rate limit, daily quota, `/usage`). Otherwise the usual answer, charged as usual. A tag is valid only for the account and the request it was answered to. `*` is a 400 (it would tell for free whether records exist); `preview=true` ignores this header. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Properties owned by the named owner */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PropertyResponse"];
                };
            };
            /** @description Not Modified: `If-None-Match` held this request's current `ETag`, so the records it stands for are unchanged. No body (use the answer you hold). 0 credits; it counts as a call (rate limit, daily quota, `/usage`) like any other. */
            304: {
                headers: {
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description This call's id (a keyed request's: its transaction's) */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No credits remaining, or every credit grant has expired. 0 credits. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No properties found. 0 credits. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getOwnerDetail: {
        parameters: {
            query: {
                /** @description Owner ID, from `owner.owner1.id` ... `owner.owner4.id` of a record or `id` of /owner/search */
                id: string;
                /** @description A free preview: answers `status.total` and `status.credits_required` (what this call would cost at this page and page size) with an empty `property`; charges nothing; counts as a call and is rate-limited like one. */
                preview?: boolean;
                /** @description The most this call may cost: a call whose page holds more records than this is refused with a 402 that names its cost, and nothing is charged. */
                max_credits?: number;
            };
            header?: {
                /** @description Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was (same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that timed out may be charged again. */
                "Idempotency-Key"?: string;
                /** @description The `ETag` of an answer you received to this same request (or several, comma-separated; a weak `W/"..."` form matches too). While the records it returned are unchanged, the answer is a **304 Not Modified**: no body, the same `ETag`, **0 credits**; it still counts as a call (rate limit, daily quota, `/usage`). Otherwise the usual answer, charged as usual. A tag is valid only for the account and the request it was answered to. `*` is a 400 (it would tell for free whether records exist); `preview=true` ignores this header. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The owner */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OwnerDetailResponse"];
                };
            };
            /** @description Not Modified: `If-None-Match` held this request's current `ETag`, so the records it stands for are unchanged. No body (use the answer you hold). 0 credits; it counts as a call (rate limit, daily quota, `/usage`) like any other. */
            304: {
                headers: {
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description This call's id (a keyed request's: its transaction's) */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No credits remaining, or every credit grant has expired. 0 credits. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No properties found. 0 credits. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    searchOwners: {
        parameters: {
            query: {
                /** @description The start of an owner's name: an entity's (`ACME HOLDINGS`), a person's LAST FIRST (`SMITH JOHN`); at least 3 letters */
                name: string;
                /** @description Two-letter state code */
                state?: string;
                /** @description Page number, from 1. page x pagesize may be at most 10,000 (a 400 beyond): narrow the search with state or city instead of paging deeper. */
                page?: number;
                /** @description Records per page */
                pagesize?: number;
                /** @description A free preview: answers `status.total` and `status.credits_required` (what this call would cost at this page and page size) with an empty `property`; charges nothing; counts as a call and is rate-limited like one. */
                preview?: boolean;
                /** @description The most this call may cost: a call whose page holds more records than this is refused with a 402 that names its cost, and nothing is charged. */
                max_credits?: number;
            };
            header?: {
                /** @description Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was (same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that timed out may be charged again. */
                "Idempotency-Key"?: string;
                /** @description The `ETag` of an answer you received to this same request (or several, comma-separated; a weak `W/"..."` form matches too). While the records it returned are unchanged, the answer is a **304 Not Modified**: no body, the same `ETag`, **0 credits**; it still counts as a call (rate limit, daily quota, `/usage`). Otherwise the usual answer, charged as usual. A tag is valid only for the account and the request it was answered to. `*` is a 400 (it would tell for free whether records exist); `preview=true` ignores this header. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Owners, most parcels first */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OwnerSearchResponse"];
                };
            };
            /** @description Not Modified: `If-None-Match` held this request's current `ETag`, so the records it stands for are unchanged. No body (use the answer you hold). 0 credits; it counts as a call (rate limit, daily quota, `/usage`) like any other. */
            304: {
                headers: {
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description This call's id (a keyed request's: its transaction's) */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No credits remaining, or every credit grant has expired. 0 credits. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No properties found. 0 credits. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getPropertyByParcel: {
        parameters: {
            query: {
                /** @description Assessor Parcel Number, with or without special characters */
                apn: string;
                /** @description Two-letter state code */
                state?: string;
                /** @description County name, e.g. `Sacramento` or `Sacramento County`; a bare name also means the independent city of that name (`Charlottesville`) */
                county?: string;
                /** @description A free preview: answers `status.total` and `status.credits_required` (what this call would cost at this page and page size) with an empty `property`; charges nothing; counts as a call and is rate-limited like one. */
                preview?: boolean;
                /** @description The most this call may cost: a call whose page holds more records than this is refused with a 402 that names its cost, and nothing is charged. */
                max_credits?: number;
            };
            header?: {
                /** @description Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was (same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that timed out may be charged again. */
                "Idempotency-Key"?: string;
                /** @description The `ETag` of an answer you received to this same request (or several, comma-separated; a weak `W/"..."` form matches too). While the records it returned are unchanged, the answer is a **304 Not Modified**: no body, the same `ETag`, **0 credits**; it still counts as a call (rate limit, daily quota, `/usage`). Otherwise the usual answer, charged as usual. A tag is valid only for the account and the request it was answered to. `*` is a 400 (it would tell for free whether records exist); `preview=true` ignores this header. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Properties with that parcel number */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PropertyResponse"];
                };
            };
            /** @description Not Modified: `If-None-Match` held this request's current `ETag`, so the records it stands for are unchanged. No body (use the answer you hold). 0 credits; it counts as a call (rate limit, daily quota, `/usage`) like any other. */
            304: {
                headers: {
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description This call's id (a keyed request's: its transaction's) */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No credits remaining, or every credit grant has expired. 0 credits. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No properties found. 0 credits. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getPropertiesInRadius: {
        parameters: {
            query: {
                /** @description Latitude of the centre, degrees */
                latitude: number;
                /** @description Longitude of the centre, degrees */
                longitude: number;
                /** @description Radius in miles, more than 0 and at most 10 */
                radius: number;
                /** @description Only records of these property types (`summary.proptype`), comma-separated, any case: SFR, CONDOMINIUM, APARTMENT, COOPERATIVE, TOWNHOUSE/ROWHOUSE, DUPLEX, TRIPLEX, MOBILE HOME, VACANT LAND, COMMERCIAL, INDUSTRIAL, CONDOMINIUM PARKING, OTHER, UNKNOWN */
                proptype?: string;
                /** @description Page number, from 1. page x pagesize may be at most 10,000 (a 400 beyond): narrow the search with state or city instead of paging deeper. */
                page?: number;
                /** @description Records per page */
                pagesize?: number;
                /** @description A free preview: answers `status.total` and `status.credits_required` (what this call would cost at this page and page size) with an empty `property`; charges nothing; counts as a call and is rate-limited like one. */
                preview?: boolean;
                /** @description The most this call may cost: a call whose page holds more records than this is refused with a 402 that names its cost, and nothing is charged. */
                max_credits?: number;
            };
            header?: {
                /** @description Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was (same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that timed out may be charged again. */
                "Idempotency-Key"?: string;
                /** @description The `ETag` of an answer you received to this same request (or several, comma-separated; a weak `W/"..."` form matches too). While the records it returned are unchanged, the answer is a **304 Not Modified**: no body, the same `ETag`, **0 credits**; it still counts as a call (rate limit, daily quota, `/usage`). Otherwise the usual answer, charged as usual. A tag is valid only for the account and the request it was answered to. `*` is a 400 (it would tell for free whether records exist); `preview=true` ignores this header. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Properties in the circle, nearest first */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PropertyResponse"];
                };
            };
            /** @description Not Modified: `If-None-Match` held this request's current `ETag`, so the records it stands for are unchanged. No body (use the answer you hold). 0 credits; it counts as a call (rate limit, daily quota, `/usage`) like any other. */
            304: {
                headers: {
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description This call's id (a keyed request's: its transaction's) */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No credits remaining, or every credit grant has expired. 0 credits. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No properties found. 0 credits. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getPropertiesInArea: {
        parameters: {
            query?: {
                /** @description A box: `minLon,minLat,maxLon,maxLat` in degrees, at most 20 miles each way. Give bbox or polygon. */
                bbox?: string;
                /** @description A GeoJSON Polygon (RFC 7946), URL-encoded: one closed ring of [longitude, latitude], 3 to 200 vertices, not crossing itself, no holes; edges are straight in longitude/latitude; its bounding box at most 20 miles each way. Give bbox or polygon. */
                polygon?: string;
                /** @description Only records of these property types (`summary.proptype`), comma-separated, any case: SFR, CONDOMINIUM, APARTMENT, COOPERATIVE, TOWNHOUSE/ROWHOUSE, DUPLEX, TRIPLEX, MOBILE HOME, VACANT LAND, COMMERCIAL, INDUSTRIAL, CONDOMINIUM PARKING, OTHER, UNKNOWN */
                proptype?: string;
                /** @description Page number, from 1. page x pagesize may be at most 10,000 (a 400 beyond): narrow the search with state or city instead of paging deeper. */
                page?: number;
                /** @description Records per page */
                pagesize?: number;
                /** @description A free preview: answers `status.total` and `status.credits_required` (what this call would cost at this page and page size) with an empty `property`; charges nothing; counts as a call and is rate-limited like one. */
                preview?: boolean;
                /** @description The most this call may cost: a call whose page holds more records than this is refused with a 402 that names its cost, and nothing is charged. */
                max_credits?: number;
            };
            header?: {
                /** @description Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was (same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that timed out may be charged again. */
                "Idempotency-Key"?: string;
                /** @description The `ETag` of an answer you received to this same request (or several, comma-separated; a weak `W/"..."` form matches too). While the records it returned are unchanged, the answer is a **304 Not Modified**: no body, the same `ETag`, **0 credits**; it still counts as a call (rate limit, daily quota, `/usage`). Otherwise the usual answer, charged as usual. A tag is valid only for the account and the request it was answered to. `*` is a 400 (it would tell for free whether records exist); `preview=true` ignores this header. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Properties in the area, nearest its centre first */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PropertyResponse"];
                };
            };
            /** @description Not Modified: `If-None-Match` held this request's current `ETag`, so the records it stands for are unchanged. No body (use the answer you hold). 0 credits; it counts as a call (rate limit, daily quota, `/usage`) like any other. */
            304: {
                headers: {
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description This call's id (a keyed request's: its transaction's) */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No credits remaining, or every credit grant has expired. 0 credits. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No properties found. 0 credits. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getSaleHistory: {
        parameters: {
            query: {
                /** @description Property ID from `identifier.Id` of an earlier lookup */
                id: string;
                /** @description A free preview: answers `status.total` and `status.credits_required` (what this call would cost at this page and page size) with an empty `property`; charges nothing; counts as a call and is rate-limited like one. */
                preview?: boolean;
                /** @description The most this call may cost: a call whose page holds more records than this is refused with a 402 that names its cost, and nothing is charged. */
                max_credits?: number;
            };
            header?: {
                /** @description Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was (same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that timed out may be charged again. */
                "Idempotency-Key"?: string;
                /** @description The `ETag` of an answer you received to this same request (or several, comma-separated; a weak `W/"..."` form matches too). While the records it returned are unchanged, the answer is a **304 Not Modified**: no body, the same `ETag`, **0 credits**; it still counts as a call (rate limit, daily quota, `/usage`). Otherwise the usual answer, charged as usual. A tag is valid only for the account and the request it was answered to. `*` is a 400 (it would tell for free whether records exist); `preview=true` ignores this header. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The property with its sale history */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SaleHistoryResponse"];
                };
            };
            /** @description Not Modified: `If-None-Match` held this request's current `ETag`, so the records it stands for are unchanged. No body (use the answer you hold). 0 credits; it counts as a call (rate limit, daily quota, `/usage`) like any other. */
            304: {
                headers: {
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description This call's id (a keyed request's: its transaction's) */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No credits remaining, or every credit grant has expired. 0 credits. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No properties found. 0 credits. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getAssessmentDetail: {
        parameters: {
            query: {
                /** @description Property ID from `identifier.Id` of an earlier lookup */
                id: string;
                /** @description A free preview: answers `status.total` and `status.credits_required` (what this call would cost at this page and page size) with an empty `property`; charges nothing; counts as a call and is rate-limited like one. */
                preview?: boolean;
                /** @description The most this call may cost: a call whose page holds more records than this is refused with a 402 that names its cost, and nothing is charged. */
                max_credits?: number;
            };
            header?: {
                /** @description Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was (same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that timed out may be charged again. */
                "Idempotency-Key"?: string;
                /** @description The `ETag` of an answer you received to this same request (or several, comma-separated; a weak `W/"..."` form matches too). While the records it returned are unchanged, the answer is a **304 Not Modified**: no body, the same `ETag`, **0 credits**; it still counts as a call (rate limit, daily quota, `/usage`). Otherwise the usual answer, charged as usual. A tag is valid only for the account and the request it was answered to. `*` is a 400 (it would tell for free whether records exist); `preview=true` ignores this header. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The property with its assessment history */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AssessmentHistoryResponse"];
                };
            };
            /** @description Not Modified: `If-None-Match` held this request's current `ETag`, so the records it stands for are unchanged. No body (use the answer you hold). 0 credits; it counts as a call (rate limit, daily quota, `/usage`) like any other. */
            304: {
                headers: {
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description This call's id (a keyed request's: its transaction's) */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No credits remaining, or every credit grant has expired. 0 credits. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No properties found. 0 credits. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getChanges: {
        parameters: {
            query?: {
                /** @description Where to continue: `status.cursor` of the previous answer with the same filters. Absent: from the oldest event kept (events are kept 30 days). */
                since?: string;
                /** @description Events per page */
                pagesize?: number;
                /** @description Only records in this ZIP (ZIP+4 accepted; the add-on is ignored) */
                zip?: string;
                /** @description Only records in this county: its name (`Philadelphia`, `Philadelphia County`) or 5-digit FIPS code; needs `state` */
                county?: string;
                /** @description Only records in this state; required with `county` */
                state?: string;
                /** @description Only records this owner entity owned before or after the change (`owner.owner1.id` of a record; an ID merged into another answers as that one) */
                ownerId?: string;
                /** @description A watch list: only these properties (identifier.Id), comma-separated, at most 500 */
                ids?: string;
                /** @description A free preview: answers `status.total` and `status.credits_required` (what this call would cost at this page and page size) with an empty `property`; charges nothing; counts as a call and is rate-limited like one. */
                preview?: boolean;
                /** @description The most this call may cost: a call whose page holds more records than this is refused with a 402 that names its cost, and nothing is charged. */
                max_credits?: number;
            };
            header?: {
                /** @description Makes retries safe: a request repeated with the same key within 24 hours is charged once and answered as the first was (same `transactionID`, same `records_returned`); duplicates sent at the same time are charged once too. The same key on a different request is a 400. Use a new key (e.g. a UUID) for each logical request. Without it, a retry of a request that timed out may be charged again. */
                "Idempotency-Key"?: string;
                /** @description The `ETag` of an answer you received to this same request (or several, comma-separated; a weak `W/"..."` form matches too). While the records it returned are unchanged, the answer is a **304 Not Modified**: no body, the same `ETag`, **0 credits**; it still counts as a call (rate limit, daily quota, `/usage`). Otherwise the usual answer, charged as usual. A tag is valid only for the account and the request it was answered to. `*` is a 400 (it would tell for free whether records exist); `preview=true` ignores this header. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The events after the cursor, oldest first */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChangesResponse"];
                };
            };
            /** @description Not Modified: `If-None-Match` held this request's current `ETag`, so the records it stands for are unchanged. No body (use the answer you hold). 0 credits; it counts as a call (rate limit, daily quota, `/usage`) like any other. */
            304: {
                headers: {
                    /** @description A strong tag over the records this answer returned (their stored data, `vintage.lastModified` among it), the page asked and the account: send it back in `If-None-Match` with the same request, and while those records are unchanged the answer is a 304, charged nothing. Not sent with a preview (no records) or an error. */
                    ETag?: string;
                    /** @description This call's id (a keyed request's: its transaction's) */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No credits remaining, or every credit grant has expired. 0 credits. */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No properties found. 0 credits. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    autocompleteAddress: {
        parameters: {
            query: {
                /** @description Partial address starting with a house number, or a street name when zip is given */
                q: string;
                /** @description 5-digit ZIP (ZIP+4 accepted; the add-on is ignored) */
                zip?: string;
                /** @description Two-letter state code */
                state?: string;
                /** @description Suggestions to return */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Suggestions, best first */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SuggestionResponse"];
                };
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Usage of the calling account */
            200: {
                headers: {
                    /** @description The request id */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UsageResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The calling account's webhooks */
            200: {
                headers: {
                    /** @description The request id */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookListResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes a retry safe: a creation repeated with the same key within 24 hours creates nothing more and is answered with what the first made, as it is now (with its secret; header `Idempotent-Replayed: true`). The same key with another body is a 400. Without it, a retry of a creation that timed out makes a second webhook. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookRequest"];
            };
        };
        responses: {
            /** @description The webhook, with its secret (shown this once) */
            201: {
                headers: {
                    /** @description The request id */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreateWebhookResponse"];
                };
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The account has 25 webhooks already, the most it may have: delete one first. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request body is larger than the gateway takes (the batch: 256 KB). 0 credits. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook id (`webhook.id`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted */
            204: {
                headers: {
                    /** @description The request id */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No webhook with that id on the calling account (another account's is not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Attempts per page */
                pagesize?: number;
                /** @description Where the next page starts: `nextCursor` of the page before */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The webhook id (`webhook.id`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Delivery attempts, newest first */
            200: {
                headers: {
                    /** @description The request id */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveriesResponse"];
                };
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No webhook with that id on the calling account (another account's is not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook id (`webhook.id`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The test event is queued */
            202: {
                headers: {
                    /** @description The request id */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestResponse"];
                };
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No webhook with that id on the calling account (another account's is not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The webhook is owed 10 test events already, the most at once: wait for them to be delivered (or enable it). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    enableWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook id (`webhook.id`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook, active */
            200: {
                headers: {
                    /** @description The request id */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResponse"];
                };
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No webhook with that id on the calling account (another account's is not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: {
                /** @description How long the replaced secret keeps signing deliveries beside the new one, in seconds: time to move the receiver to the new secret. 0 ends it at once (a secret that leaked). */
                overlap_seconds?: number;
            };
            header?: never;
            path: {
                /** @description The webhook id (`webhook.id`) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The webhook, with its new secret (shown this once) */
            200: {
                headers: {
                    /** @description The request id */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotateWebhookSecretResponse"];
                };
            };
            /** @description Missing or invalid parameters (a text value past its maxLength too) or headers (Idempotency-Key, If-None-Match); the message names the parameter or header. 0 credits. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Missing or invalid API key. 0 credits. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description API key disabled. 0 credits. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description No webhook with that id on the calling account (another account's is not found either). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Rate limit or daily quota exceeded; see Retry-After and RateLimit-* headers. 0 credits. */
            429: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    /** @description Requests allowed in any rolling 60 s for this account */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the current 60 s window */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until a request slot frees (until the next UTC day for the daily quota) */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The request line and headers are larger than the service takes (16 KB): shorten the query string (a polygon: compact JSON, fewer digits or vertices). 0 credits. */
            431: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description Temporarily unable to serve: a store is slow, unreachable or reloading (never reported as a bad key). Retry after Retry-After seconds. 0 credits. */
            503: {
                headers: {
                    /** @description Seconds to wait before retrying */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Service status, database state, record count and version */
            200: {
                headers: {
                    /** @description Equals status.transactionID */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthResponse"];
                };
            };
        };
    };
    getPlans: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Published plans */
            200: {
                headers: {
                    /** @description The request id */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlansResponse"];
                };
            };
        };
    };
}
