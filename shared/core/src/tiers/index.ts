// The one table of tiers, plans, rate limits and daily quotas (SPEC 2.6 and 8; ARCHITECTURE.md decisions).
// Everything that needs a tier's numbers (gateway, billing, /plans) reads them from here.

export const TIER_NAMES = ['free', 'basic', 'starter', 'growth', 'pro', 'scale', 'enterprise'] as const;
export type TierName = (typeof TIER_NAMES)[number];

export interface TierLimits {
  /** Requests admitted per rolling 60 seconds. */
  ratePerMinute: number;
  /** Calls per UTC day; null means no quota (enterprise: per-account override). */
  dailyQuota: number | null;
}

export const TIER_LIMITS: Readonly<Record<TierName, TierLimits>> = {
  free: { ratePerMinute: 10, dailyQuota: 100 },
  basic: { ratePerMinute: 30, dailyQuota: 1_000 },
  starter: { ratePerMinute: 60, dailyQuota: 5_000 },
  growth: { ratePerMinute: 120, dailyQuota: 20_000 },
  pro: { ratePerMinute: 200, dailyQuota: 50_000 },
  scale: { ratePerMinute: 300, dailyQuota: 200_000 },
  enterprise: { ratePerMinute: 1_000, dailyQuota: null },
};

export interface PlanDefinition {
  plan: TierName;
  name: string;
  /** Records (credits) per period; null for custom (enterprise). */
  records: number | null;
  priceUsd: number | null;
  perRecordUsd: number | null;
  validDays: number;
}

/** The published plan table (SPEC 2.6). Unused records do not carry over: a grant expires after validDays. */
export const PLANS: readonly PlanDefinition[] = [
  { plan: 'free', name: 'Free', records: 100, priceUsd: 0, perRecordUsd: null, validDays: 30 },
  { plan: 'starter', name: 'Starter', records: 5_000, priceUsd: 249, perRecordUsd: 0.05, validDays: 30 },
  { plan: 'growth', name: 'Growth', records: 25_000, priceUsd: 499, perRecordUsd: 0.02, validDays: 30 },
  { plan: 'pro', name: 'Pro', records: 100_000, priceUsd: 999, perRecordUsd: 0.01, validDays: 30 },
  { plan: 'scale', name: 'Scale', records: 500_000, priceUsd: 2_499, perRecordUsd: 0.005, validDays: 30 },
  { plan: 'enterprise', name: 'Enterprise', records: null, priceUsd: null, perRecordUsd: null, validDays: 30 },
];

export function findPlan(name: string): PlanDefinition | undefined {
  return PLANS.find((p) => p.plan === name);
}
