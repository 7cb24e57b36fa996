-- Records rendered before 0009 keep the parcel id hashed from their county and APN (below 2^48) until they are
-- rewritten. Registry ids start at 2^48, so a parcel registered now never has the id an older record shows for
-- another parcel (and stay below 2^53, exact in JSON). Ids 0009 allocated before this are left as they are.
ALTER TABLE records.parcels ALTER COLUMN parcel_id RESTART WITH 281474976710656;
