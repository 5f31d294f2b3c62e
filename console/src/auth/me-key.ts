/** The query key of the signed-in user (null when signed out). */
export const ME_KEY = ['me'] as const;
