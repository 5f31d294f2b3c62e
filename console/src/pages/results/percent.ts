/** `part` of `whole` as a whole percentage (0 when `whole` is 0), for bars and their labels. */
export const percentOf = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);
