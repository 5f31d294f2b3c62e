/**
 * Whether `value` (trimmed) looks like an e-mail address as area C accepts it (Joi's `email`:
 * something, `@`, a domain of at least two labels). The service stays the authority: this only
 * spares a request that would be refused.
 */
export const looksLikeEmail = (value: string): boolean => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
