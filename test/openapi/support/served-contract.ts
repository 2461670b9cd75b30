// An app under contract test, listening on 127.0.0.1: the document it serves at /openapi.json, the
// Contract read from that document, and how a sample request is sent to it. The fixture app's and
// the example's contract suites start their apps the same way.
import type { KilnServer } from '@kiln/core';
import { type Reply, request } from '../../support/server.js';
import { Contract, type Sample } from './openapi-contract.js';

export interface ServedContract {
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  /** The document as the app serves it. */
  readonly served: Record<string, any>;
  readonly contract: Contract;
  /** Sends one sample request to the app. */
  readonly send: (sample: Sample) => Promise<Reply>;
}

/** Listens `app` on a free loopback port and reads the document it serves. */
export async function serveContract(app: KilnServer): Promise<ServedContract> {
  const base = `http://127.0.0.1:${(await app.listen(0, '127.0.0.1')).port}`;
  const served = (await request(base, '/openapi.json')).json() as Record<string, any>;
  const send = (sample: Sample) =>
    request(base, sample.path, { method: sample.method ?? 'GET', headers: sample.headers, body: sample.body });
  return { base, served, contract: new Contract(served), send };
}
