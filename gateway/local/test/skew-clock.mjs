// Loaded with --import into a gateway process by the rate-limit test: this process's clock runs CLOCK_SKEW_MS ahead.
const skew = Number(process.env.CLOCK_SKEW_MS ?? 0);
const realNow = Date.now;
Date.now = () => realNow() + skew;
