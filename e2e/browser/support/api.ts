import { expect } from 'chai';

/**
 * JSON calls to the stack through the gateway as the holder of `token` (a personal access
 * token): `(method, path, body?)` resolves with the answer's body (undefined for 204) and fails
 * the test on any status of 300 or more.
 */
export const bearerApi =
  (baseUrl: string, token: string) =>
  async (method: string, path: string, body?: unknown): Promise<Record<string, unknown> | undefined> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(res.status, `${method} ${path}`).to.be.below(300);
    return res.status === 204 ? undefined : ((await res.json()) as Record<string, unknown>);
  };
