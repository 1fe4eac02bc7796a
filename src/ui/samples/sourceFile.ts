/** Sample: a TypeScript source file (written for Chunkscope). */
export const sourceFile = `/**
 * rate-limiter.ts — a token-bucket rate limiter with per-key buckets and lazy refill.
 *
 * Each key (a user id, an API token, an IP address) gets its own bucket. A bucket holds up to \`capacity\`
 * tokens and refills at \`refillPerSecond\`. Refill is computed on demand from the elapsed time, so idle
 * buckets cost nothing and there is no timer per key.
 */

export interface RateLimiterOptions {
  /** Most tokens a bucket can hold (the burst size). */
  capacity: number;
  /** Tokens added per second. */
  refillPerSecond: number;
  /** Buckets untouched for this long are forgotten. */
  idleTtlMs?: number;
  /** Clock, injectable for tests. */
  now?: () => number;
}

export interface Decision {
  allowed: boolean;
  /** Tokens left after this request. */
  remaining: number;
  /** Milliseconds until one more token is available (0 when allowed). */
  retryAfterMs: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly capacity: number;
  private readonly refillPerMs: number;
  private readonly idleTtlMs: number;
  private readonly now: () => number;
  private lastSweep = 0;

  constructor(options: RateLimiterOptions) {
    if (!(options.capacity > 0)) throw new RangeError('capacity must be positive');
    if (!(options.refillPerSecond > 0)) throw new RangeError('refillPerSecond must be positive');
    this.capacity = options.capacity;
    this.refillPerMs = options.refillPerSecond / 1000;
    this.idleTtlMs = options.idleTtlMs ?? 10 * 60 * 1000;
    this.now = options.now ?? Date.now;
  }

  /** Take \`cost\` tokens from the key's bucket if it has them. */
  take(key: string, cost = 1): Decision {
    const now = this.now();
    this.sweep(now);
    const bucket = this.refill(key, now);

    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return { allowed: true, remaining: Math.floor(bucket.tokens), retryAfterMs: 0 };
    }

    const missing = cost - bucket.tokens;
    return {
      allowed: false,
      remaining: Math.floor(bucket.tokens),
      retryAfterMs: Math.ceil(missing / this.refillPerMs),
    };
  }

  /** Tokens currently available to a key, without taking any. */
  peek(key: string): number {
    return Math.floor(this.refill(key, this.now()).tokens);
  }

  /** Forget a key (for example after the user logs out). */
  reset(key: string): void {
    this.buckets.delete(key);
  }

  get size(): number {
    return this.buckets.size;
  }

  private refill(key: string, now: number): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: this.capacity, updatedAt: now };
      this.buckets.set(key, bucket);
      return bucket;
    }
    const elapsed = Math.max(0, now - bucket.updatedAt);
    bucket.tokens = Math.min(this.capacity, bucket.tokens + elapsed * this.refillPerMs);
    bucket.updatedAt = now;
    return bucket;
  }

  /** Drop idle buckets, at most once per TTL, so memory follows the number of active keys. */
  private sweep(now: number): void {
    if (now - this.lastSweep < this.idleTtlMs) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.updatedAt > this.idleTtlMs) this.buckets.delete(key);
    }
  }
}

/** Express-style middleware: 429 with a Retry-After header when the caller is over its budget. */
export function rateLimit(limiter: RateLimiter, keyOf: (req: { ip: string; headers: Record<string, string> }) => string) {
  return (
    req: { ip: string; headers: Record<string, string> },
    res: { status(code: number): { json(body: unknown): void }; setHeader(name: string, value: string): void },
    next: () => void,
  ) => {
    const decision = limiter.take(keyOf(req));
    res.setHeader('X-RateLimit-Remaining', String(decision.remaining));
    if (decision.allowed) {
      next();
      return;
    }
    res.setHeader('Retry-After', String(Math.ceil(decision.retryAfterMs / 1000)));
    res.status(429).json({ error: 'too many requests', retryAfterMs: decision.retryAfterMs });
  };
}

// Example: 20 requests burst, then 5 per second, keyed by API token or IP.
export const defaultLimiter = new RateLimiter({ capacity: 20, refillPerSecond: 5 });
export const apiLimit = rateLimit(defaultLimiter, (req) => req.headers['x-api-token'] ?? req.ip);
`;
