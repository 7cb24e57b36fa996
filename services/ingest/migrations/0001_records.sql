-- Property records. Lookups read `body` (the record pre-rendered as JSON, without demographics, which are
-- joined per census tract so a tract reload never rewrites properties). Child tables carry no foreign keys:
-- a bulk load writes parents and children in one transaction, and per-row FK triggers would cost more than the load.
CREATE SCHEMA records;

CREATE SEQUENCE records.property_id_seq;

CREATE TABLE records.properties (
  id              bigint PRIMARY KEY,
  parcel_id       bigint NOT NULL,
  apn             text NOT NULL,
  apn_orig        text NOT NULL,
  apn_key         text NOT NULL,             -- APN without special characters
  tax_parcel_key  text,                      -- tax parcel id without special characters, where the county has one
  fips            char(5) NOT NULL,
  state           char(2) NOT NULL,
  county_key      text NOT NULL,             -- county name normalised ("SACRAMENTO")
  city_key        text NOT NULL,             -- city normalised ("SAINT LOUIS")
  zip             char(5) NOT NULL,
  line_key        text NOT NULL,             -- normalised number + street ("123 N MAIN ST")
  street_key      text NOT NULL,             -- normalised street without number ("N MAIN ST")
  unit_key        text NOT NULL DEFAULT '',  -- normalised unit id ("4B"), '' when none
  census_tract    text,
  source          text NOT NULL,             -- "synthetic:<seed>" or "import:<mapping>"
  last_modified   timestamptz NOT NULL,
  body            text NOT NULL
);
-- Address lookups: (street line, zip) or (street line, state, city); units ordered within.
CREATE INDEX properties_line_zip ON records.properties (line_key, zip, unit_key, id);
CREATE INDEX properties_line_city ON records.properties (line_key, state, city_key, unit_key, id);
-- Parcel lookups: stripped APN and stripped tax parcel id.
CREATE INDEX properties_apn ON records.properties (apn_key, state);
CREATE INDEX properties_tax_parcel ON records.properties (tax_parcel_key) WHERE tax_parcel_key IS NOT NULL;
CREATE INDEX properties_tract ON records.properties (census_tract);

-- owner1 (seq 1) and owner2 (seq 2); state and city are copied so an owner lookup is one index range.
CREATE TABLE records.owners (
  property_id     bigint NOT NULL,
  seq             smallint NOT NULL CHECK (seq IN (1, 2)),
  first_name      text,
  last_name       text,
  full_name       text,
  owner_type      text,
  last_name_key   text,
  first_name_key  text,
  state           char(2) NOT NULL,
  city_key        text NOT NULL,
  PRIMARY KEY (property_id, seq)
);
CREATE INDEX owners_name ON records.owners (last_name_key, state, city_key, first_name_key, property_id);

CREATE TABLE records.owner_mailing (
  property_id     bigint PRIMARY KEY,
  line1           text,
  locality        text,
  country_subd    char(2),
  postal1         text
);

CREATE TABLE records.assessments (
  property_id     bigint PRIMARY KEY,
  tax_year        integer,
  land            integer,
  improvements    integer,
  total           integer,
  market_total    integer,
  avm_value       integer,
  avm_date        date,
  equity          integer,
  rental_estimate integer,
  rental_source   text CHECK (rental_source IN ('property', 'area_median_acs_2024')),
  tax_amount      numeric(12, 2)
);

CREATE TABLE records.assessment_history (
  property_id     bigint NOT NULL,
  tax_year        integer NOT NULL,
  land            integer,
  improvements    integer,
  total           integer,
  market_total    integer,
  tax_amount      numeric(12, 2),
  PRIMARY KEY (property_id, tax_year)
);

CREATE TABLE records.sales (
  property_id     bigint NOT NULL,
  seq             smallint NOT NULL,
  sale_date       date NOT NULL,
  price           integer,
  document_type   text NOT NULL,
  recording_date  date NOT NULL,
  buyer_name      text,
  seller_name     text,
  PRIMARY KEY (property_id, seq)
);

CREATE TABLE records.mortgages (
  property_id     bigint NOT NULL,
  seq             smallint NOT NULL,
  amount          numeric(14, 2),
  recording_date  date,
  lender          text,
  PRIMARY KEY (property_id, seq)
);

-- Census-tract demographics by data vintage; `body` is the current vintage pre-rendered for lookups.
CREATE TABLE records.tract_demographics (
  tract                   text NOT NULL,
  vintage_year            integer NOT NULL,
  source                  text NOT NULL,
  median_age              numeric(5, 1),
  median_gross_rent       integer,
  median_home_value       integer,
  median_household_income integer,
  owner_occupied_rate     numeric(5, 2),
  poverty_rate            numeric(5, 2),
  total_population        integer,
  unemployment_rate       numeric(5, 2),
  vacancy_rate            numeric(5, 2),
  PRIMARY KEY (tract, vintage_year)
);

CREATE TABLE records.tract_profiles (
  tract        text PRIMARY KEY,
  vintage_year integer NOT NULL,
  body         text NOT NULL
);

-- Exact record count maintained by every load, so /health never counts 100M rows.
CREATE TABLE records.dataset_stats (
  singleton      boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  property_count bigint NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now()
);
INSERT INTO records.dataset_stats (property_count) VALUES (0);
