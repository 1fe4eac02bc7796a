import { compareQuestionResults, type ComparedMetric, type ComparedQuestion, type Significance, type SignificanceOptions } from '../core/eval/significance';
import { rpcClient, type Endpoint, type RpcClient } from '../worker/rpc';
import type { SignificanceWorkerApi } from '../worker/significanceProtocol';

/**
 * The comparison's significance, computed in a small worker of its own (started on the first comparison, kept for
 * the next); where there are no workers (unit tests in Node) the same core function runs in place.
 */

let client: RpcClient<SignificanceWorkerApi> | null = null;

function worker(): RpcClient<SignificanceWorkerApi> {
  if (!client) {
    const w = new Worker(new URL('../worker/significance.worker.ts', import.meta.url), { type: 'module', name: 'chunkscope-significance' });
    client = rpcClient<SignificanceWorkerApi>(w as unknown as Endpoint);
  }
  return client;
}

export async function compareInWorker(a: ComparedQuestion[], b: ComparedQuestion[], options: SignificanceOptions<ComparedMetric>): Promise<Significance<ComparedMetric>> {
  if (typeof Worker === 'undefined') return compareQuestionResults(a, b, options);
  return worker().call('compare', { a, b, options });
}
