// A marketplace's subscriber (issue 27, part 5): behind the marketplace's proxy secret, a customer who subscribed
// through the marketplace is named by the marketplace's user header and pays for the plan its subscription header
// names. Each (user, plan) is one account of ours, provisioned on its first call, with the plan's records per period.
// The headers are read here only: their limits, and the 401 that names a header the marketplace sent wrong (they are
// the subscriber's credential: SPEC 5, "a missing or invalid key yields 401", so every authenticated endpoint
// answers it as documented, with a message that names the header and, for a plan, the plans accepted).
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../errors.js';
import { PLANS, type PlanDefinition, type TierName } from '../tiers/index.js';

export const MARKETPLACE_USER_HEADER = 'x-marketplace-user';
export const MARKETPLACE_SUBSCRIPTION_HEADER = 'x-marketplace-subscription';

/** A plan a marketplace sells: one with a fixed number of records per period (enterprise is sold directly only). */
export type MarketplacePlan = PlanDefinition & { records: number };

/** The plans a marketplace subscriber may be on (`/plans` publishes them as `marketplace_plans`). */
export const MARKETPLACE_PLANS: readonly MarketplacePlan[] = PLANS.filter(
  (p): p is MarketplacePlan => p.records !== null,
);

export const MARKETPLACE_PLAN_NAMES: readonly TierName[] = MARKETPLACE_PLANS.map((p) => p.plan);

export function findMarketplacePlan(name: string): MarketplacePlan | undefined {
  return MARKETPLACE_PLANS.find((p) => p.plan === name);
}

/** Who is calling through the marketplace: its user id (as the marketplace spells it) and the plan paid for. */
export interface MarketplaceSubscriber {
  user: string;
  plan: TierName;
}

/** The longest user id accepted (a marketplace's user names and ids are far shorter). */
export const MARKETPLACE_USER_MAX = 128;
/** The longest subscription header value accepted (plan names are a word). */
export const MARKETPLACE_SUBSCRIPTION_MAX = 32;

const USER_MESSAGE = `Invalid X-Marketplace-User: 1 to ${MARKETPLACE_USER_MAX} characters, letters, digits and . _ - @ : + (starting with a letter or digit)`;
const acceptedPlans = () => MARKETPLACE_PLAN_NAMES.join(', ');

/** The user header: case kept (two ids differing in case are two users), no spaces, no control characters. */
const UserHeader = z
  .string()
  .max(MARKETPLACE_USER_MAX)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._@:+-]*$/);

/** The subscription header: a plan name, in any case (`PRO` or `pro`). */
const SubscriptionHeader = z
  .string()
  .max(MARKETPLACE_SUBSCRIPTION_MAX)
  .regex(/^[A-Za-z0-9_-]+$/)
  .transform((s) => s.toLowerCase());

/**
 * The subscriber the headers name; a 401 naming the header when one is malformed, or when the plan is missing or
 * not one of the marketplace's plans (the message lists them). Called only behind a valid proxy secret.
 */
export function marketplaceSubscriber(user: string, subscription: string | undefined): MarketplaceSubscriber {
  const u = UserHeader.safeParse(user);
  if (!u.success) throw new ApiError('unauthorized', USER_MESSAGE);
  if (subscription === undefined || subscription === '') {
    throw new ApiError(
      'unauthorized',
      `Missing X-Marketplace-Subscription: the subscriber's plan, one of ${acceptedPlans()}`,
    );
  }
  const s = SubscriptionHeader.safeParse(subscription);
  if (!s.success) {
    throw new ApiError(
      'unauthorized',
      `Invalid X-Marketplace-Subscription: a plan name of at most ${MARKETPLACE_SUBSCRIPTION_MAX} letters, digits, _ or -, one of ${acceptedPlans()}`,
    );
  }
  const plan = findMarketplacePlan(s.data);
  if (!plan) {
    throw new ApiError(
      'unauthorized',
      `Unknown plan '${s.data}' in X-Marketplace-Subscription: the marketplace's plans are ${acceptedPlans()}`,
    );
  }
  return { user: u.data, plan: plan.plan };
}

/**
 * Where a subscriber's entry sits in the key cache: the SHA-256 of a text no presented key can be (it holds line
 * feeds, which no header value carries), so the subscriber is cached, looked up, disabled and rebuilt like a key,
 * and no key can ever stand for it (its kind, 'subscriber', is enforced as well).
 */
export function subscriberKeyHash(s: MarketplaceSubscriber): string {
  return createHash('sha256').update(`marketplace-subscriber\n${s.plan}\n${s.user}`).digest('hex');
}
