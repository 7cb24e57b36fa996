// /plans (SPEC 2.6) from the one plan table in shared/core/src/tiers.
import type { Plan, PlansResponse } from '@pra/core/contracts';
import { PLANS, type PlanDefinition } from '@pra/core/tiers';
import { MARKETPLACE_PLAN_NAMES } from '@pra/core/auth';

const usd = (n: number, digits = 0) =>
  `$${n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })}`;

export function toPlan(p: PlanDefinition): Plan {
  return {
    plan: p.plan,
    name: p.name,
    // A custom volume is null, never 0: a client summing or comparing records cannot read "custom" as "none".
    records: p.records,
    price: p.priceUsd === null ? 'contact sales' : `${usd(p.priceUsd)}/month`,
    per_record:
      p.perRecordUsd === null ? (p.priceUsd === null ? 'volume pricing' : 'none stated') : usd(p.perRecordUsd, 3),
    valid_days: p.validDays,
    custom: p.records === null,
  };
}

export function plansResponse(purchaseUrl: string): PlansResponse {
  const plans = PLANS.map(toPlan);
  return {
    plans,
    // Marketplace subscribers buy the same packs through the marketplace (X-Marketplace-Subscription names one; the
    // key decision accepts exactly these); enterprise is sold directly only.
    marketplace_plans: plans.filter((p) => (MARKETPLACE_PLAN_NAMES as readonly string[]).includes(p.plan)),
    purchase_url: purchaseUrl,
  };
}
