/// <reference lib="webworker" />
import { compareQuestionResults } from '../core/eval/significance';
import { rpcServe, type Endpoint } from './rpc';
import type { SignificanceWorkerApi } from './significanceProtocol';

/**
 * The comparison's significance (a paired bootstrap of 1,000 resamples and Wilcoxon's test per metric) off the page's
 * thread: 472 questions take 15–60 ms on a loaded 2-core machine, long enough to drop frames while a slider moves.
 */

declare const self: DedicatedWorkerGlobalScope;

rpcServe<SignificanceWorkerApi>(self as unknown as Endpoint, {
  compare: ({ a, b, options }) => compareQuestionResults(a, b, options),
});
