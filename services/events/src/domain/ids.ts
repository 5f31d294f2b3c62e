const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an id from a path is a UUID a PostgreSQL `uuid` column accepts (anything else names nothing). */
export const isUuid = (value: string): boolean => UUID.test(value);
